import { readFile } from 'node:fs/promises';
import { expect, test } from '@playwright/test';
import { loginAsAdmin } from '../support/admin';
import { analyzeSettled } from '../support/axe';

// Issue 31: a study shared as a file (downloaded from a version's page, uploaded as a new draft, the same
// definition), and what each condition walks before launch.

test('a template is looked over, downloaded as a study file and uploaded again as the same study', async ({ page }) => {
  await loginAsAdmin(page);
  await page.goto('/admin/studies');
  await page.getByRole('button', { name: /Use this template\s*: Chatbot vs text vs no message/ }).click();
  await expect(page).toHaveURL(/\/admin\/studies\/[0-9a-f-]{36}$/);
  const firstUrl = page.url();

  // The overview: three arms, the text-only and no-message arms without a chat, nothing to look at.
  const walks = page.getByTestId('walk');
  await expect(walks).toHaveCount(3);
  await expect(walks.getByText('no chat')).toHaveCount(2);
  await expect(page.getByText('Nothing to look at before launch.')).toBeVisible();
  expect((await analyzeSettled(page)).violations).toEqual([]);
  await page.screenshot({ path: 'test-results/study-overview.png', fullPage: true });
  await page.setViewportSize({ width: 820, height: 1180 });
  await page.screenshot({ path: 'test-results/study-overview-tablet.png', fullPage: true });
  await page.setViewportSize({ width: 1280, height: 800 });

  const download = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Download study file' }).click();
  const file = await download;
  expect(file.suggestedFilename()).toMatch(/\.study\.json$/);
  const path = await file.path();
  const text = await readFile(path, 'utf8');
  const definition = JSON.parse(text) as { id: string; steps: unknown[] };
  expect(definition.id).toBe('three-arm');

  await page.goto('/admin/studies');
  await page.getByLabel('Study file (.json)').setInputFiles(path);
  await expect(page).toHaveURL(/\/admin\/studies\/[0-9a-f-]{36}$/);
  expect(page.url()).not.toBe(firstUrl);
  await expect(page.getByRole('heading', { level: 1 })).toContainText('(from ');
  // The same definition: downloading the new version gives the same file.
  const again = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Download study file' }).click();
  expect(await readFile(await (await again).path(), 'utf8')).toBe(text);
});
