import { expect, test, type Page } from '@playwright/test';
import { completeParticipantViaApi, loginAsAdmin } from '../support/admin';
import { AdminApi } from '../support/api';
import { analyzeSettled } from '../support/axe';

// Follow-up waves (issue 33, docs/decisions/0091), in Chromium: the researcher makes wave 2 follow wave 1 on its
// page; then wave 2's Prolific link admits the Prolific ID that finished wave 1 and refuses a stranger with a page of
// its own (phone and laptop, axe clean).

async function shoot(page: Page, name: string): Promise<void> {
  for (const [label, size] of [
    ['phone', { width: 390, height: 844 }],
    ['laptop', { width: 1280, height: 800 }],
  ] as const) {
    await page.setViewportSize(size);
    await page.screenshot({ path: `/tmp/waves-${name}-${label}.png`, fullPage: true });
    const { violations } = await analyzeSettled(page);
    expect(violations.map((v) => `${name} ${label}: ${v.id}`)).toEqual([]);
  }
}

test('a wave-2 experiment follows wave 1 and its link admits only those who finished wave 1', async ({
  page,
  browser,
  request,
}) => {
  test.setTimeout(120_000);
  const api = await AdminApi.login(request);
  const stamp = Date.now().toString(36);
  const first = await api.createExperiment(`Wave one ${stamp}`);
  const second = await api.createExperiment(`Wave two ${stamp}`);
  const [credential] = await api.credentials(first.id, 1);
  if (!credential) throw new Error('no credential generated');
  const finished = await completeParticipantViaApi(request, first.id, credential);
  await api.call('PUT', `/api/experiments/${second.id}/prolific-link-join`, { enabled: true });

  await loginAsAdmin(page);
  await page.goto(`/admin/experiments/${second.id}`);
  await expect(page.getByTestId('wave-follows')).toContainText('follows no other');
  await page.getByLabel('Follows').selectOption({ label: `Wave one ${stamp}` });
  await page.getByRole('button', { name: 'Save', exact: true }).click();
  await expect(page.getByTestId('wave-follows')).toContainText(`This experiment follows "Wave one ${stamp}".`);
  await page.getByRole('heading', { name: 'Follow-up waves' }).scrollIntoViewIfNeeded();
  await page.screenshot({ path: '/tmp/waves-card-laptop.png' });

  const link = (pid: string, session: string) =>
    `/prolific?PROLIFIC_PID=${pid}&STUDY_ID=STUDYWAVE2&SESSION_ID=${session}&EXPERIMENT_ID=${second.id}`;
  const strangerContext = await browser.newContext();
  const stranger = await strangerContext.newPage();
  await stranger.goto(link(`PIDSTRANGER${stamp}`.toUpperCase(), 'SESSIONSTRANGER1'));
  await expect(stranger.getByText('This follow-up study is for earlier participants.')).toBeVisible();
  await expect(stranger.getByLabel('Study email')).toHaveCount(0);
  await shoot(stranger, 'refused');
  await strangerContext.close();

  const returningContext = await browser.newContext();
  const returning = await returningContext.newPage();
  await returning.goto(link(finished.prolificPid, 'SESSIONWAVE2A'));
  await expect(returning).toHaveURL(/\/consent$/);
  await returningContext.close();

  // Once someone joined, the wave it follows is fixed.
  await page.reload();
  await expect(page.getByText(/can no longer change/)).toBeVisible();
  await expect(page.getByLabel('Follows')).toHaveCount(0);
});
