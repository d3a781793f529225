import { expect, test, type Page } from '@playwright/test';
import { loginAsAdmin } from '../support/admin';
import { analyzeSettled } from '../support/axe';

// People of the admin area and the two-factor QR code (issue 34), on a phone and a laptop, axe clean.

async function shoot(page: Page, name: string): Promise<void> {
  for (const [label, size] of [
    ['phone', { width: 390, height: 844 }],
    ['laptop', { width: 1280, height: 800 }],
  ] as const) {
    await page.setViewportSize(size);
    await page.screenshot({ path: `/tmp/small-stops-${name}-${label}.png`, fullPage: true });
    const { violations } = await analyzeSettled(page);
    expect(
      violations.map((v) => `${name} ${label}: ${v.id} ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`),
    ).toEqual([]);
  }
}

test('an admin adds an admin and an analyst, changes a role, removes one; the new admin sees a QR code', async ({
  page,
  browser,
}) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  await loginAsAdmin(page);
  await page.goto('/admin/users');
  await page.getByRole('link', { name: 'Manage admins and analysts' }).click();
  await expect(page).toHaveURL(/\/admin\/people$/);
  await expect(page.getByRole('heading', { name: 'Admins and analysts' })).toBeVisible();

  const stamp = Date.now().toString(36);
  const analystEmail = `analyst-${stamp}@lab.test`;
  await page.getByLabel('Email').fill(analystEmail);
  await page.getByRole('button', { name: 'Add account' }).click();
  await expect(page.getByTestId('new-password')).toBeVisible();
  await shoot(page, 'people-added');

  const adminEmail = `admin-${stamp}@lab.test`;
  await page.getByRole('button', { name: 'Done, hide the password' }).click();
  await page.getByLabel('Email').fill(adminEmail);
  await page.getByLabel('Role', { exact: true }).selectOption('admin');
  await page.getByRole('button', { name: 'Add account' }).click();
  const password = (await page.getByTestId('new-password').textContent()) ?? '';
  expect(password).toHaveLength(20);

  // The analyst becomes an admin, after a confirmation.
  await page.getByRole('combobox', { name: `Role of ${analystEmail}` }).selectOption('admin');
  await expect(page.getByRole('dialog', { name: `Make ${analystEmail} an admin?` })).toBeVisible();
  await page.getByRole('button', { name: 'Make admin' }).click();
  await expect(page.getByText(`${analystEmail} is now an admin.`)).toBeVisible();

  // Removal asks first.
  await page.getByRole('button', { name: `Remove ${analystEmail}` }).click();
  await expect(page.getByRole('dialog', { name: `Remove ${analystEmail}?` })).toBeVisible();
  await shoot(page, 'people-remove-confirm');
  await page.getByRole('button', { name: 'Remove account' }).click();
  await expect(page.getByText(`${analystEmail} was removed.`)).toBeVisible();
  await expect(page.getByRole('cell', { name: analystEmail })).toHaveCount(0);

  // The new admin logs in with the one-time password and sets up two-factor: a QR code drawn in the page.
  const other = await browser.newContext({ viewport: { width: 390, height: 844 } });
  const page2 = await other.newPage();
  const outside: string[] = [];
  page2.on('request', (r) => {
    if (!r.url().startsWith(new URL(page.url()).origin)) outside.push(r.url());
  });
  await page2.goto(new URL('/login', page.url()).toString());
  await page2.getByLabel('Email').fill(adminEmail);
  await page2.getByLabel('Password').fill(password);
  await page2.getByRole('button', { name: 'Log In' }).click();
  await expect(page2).toHaveURL(/\/app$/);
  await page2.goto(new URL('/admin/security', page.url()).toString());
  await page2.getByRole('button', { name: 'Set up two-factor authentication' }).click();
  await expect(page2.getByRole('img', { name: /QR code of the set-up link/ })).toBeVisible();
  await shoot(page2, 'totp-qr');
  expect(outside).toEqual([]);
  await other.close();
});
