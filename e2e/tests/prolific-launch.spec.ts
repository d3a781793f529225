import { expect, test, type Page } from '@playwright/test';
import { startFakeProlific, type FakeProlific } from '../../apps/server/test/fakes/prolific-fake';
import { FAKE_PROLIFIC_PORT } from '../playwright.config';
import { loginAsAdmin } from '../support/admin';
import { AdminApi } from '../support/api';
import { analyzeSettled } from '../support/axe';

// Launching on Prolific from the experiment page (docs/decisions/0090-prolific-launch.md), in Chromium, against a
// fake Prolific on the port the test server calls: the researcher fills the launch form (a draft study is made),
// reads the checklist and fixes what fails, publishes after the confirmation, and refreshes the submissions from
// Prolific (read over several pages). Screenshots on a phone and a laptop.

let fake: FakeProlific;

test.beforeAll(async () => {
  fake = await startFakeProlific({ port: FAKE_PROLIFIC_PORT });
  fake.pageSize = 1;
});
test.afterAll(async ({ request }) => {
  // The token is cleared again, so the specs after this one find Prolific not connected, as before.
  await (await AdminApi.login(request)).call('DELETE', '/api/admin/prolific');
  await fake.close();
});

const card = (page: Page) =>
  page
    .locator('section, div')
    .filter({ has: page.getByRole('heading', { name: 'Launch on Prolific', exact: true }) })
    .last();

test('a researcher launches on Prolific, publishes after the checklist, and refreshes the submissions', async ({
  page,
  browser,
  request,
}) => {
  test.setTimeout(120_000);
  const admin = await AdminApi.login(request);
  await admin.call('PUT', '/api/admin/prolific', { apiToken: fake.token });
  const experiment = await admin.createExperiment(`Launch ${Date.now()}`);
  await admin.call('PUT', `/api/experiments/${experiment.id}/prolific-link-join`, { enabled: true });

  await loginAsAdmin(page);
  await page.goto(`/admin/experiments/${experiment.id}`);
  const launch = card(page);
  await expect(launch.getByTestId('prolific-launch-state')).toContainText('Not launched yet');
  await launch.getByLabel('Places').fill('20');
  await launch.getByLabel('Reward (pence or cents)').fill('300');
  await launch.getByLabel('Estimated minutes').fill('12');
  await launch.getByLabel('Mobile').check();
  await launch.getByLabel(/whole study/).selectOption('completed:AUTOMATICALLY_APPROVE');
  await launch.getByLabel(/baseline intention 7/).selectOption('screened_out:MANUALLY_REVIEW');
  await page.setViewportSize({ width: 390, height: 844 });
  await launch.screenshot({ path: test.info().outputPath('prolific-launch-form-phone.png') });
  await page.setViewportSize({ width: 1280, height: 800 });
  await launch.getByRole('button', { name: 'Launch (create draft)' }).click();
  await expect(launch.getByTestId('prolific-launch-state')).toContainText('Draft study');

  const study = fake.studies.at(-1);
  expect(study?.body).toMatchObject({
    total_available_places: 20,
    reward: 300,
    estimated_completion_time: 12,
    device_compatibility: ['desktop', 'mobile'],
    completion_codes: [
      { code: experiment.codes.complete, code_type: 'COMPLETED', actions: [{ action: 'AUTOMATICALLY_APPROVE' }] },
      { code: experiment.codes.exitnoqualms, code_type: 'COMPLETED', actions: [{ action: 'MANUALLY_REVIEW' }] },
      { code: experiment.codes.exitceiling, code_type: 'OTHER', actions: [{ action: 'MANUALLY_REVIEW' }] },
    ],
  });
  expect(String(study?.body.external_study_url)).toContain(
    `/prolific?EXPERIMENT_ID=${experiment.id}&PROLIFIC_PID={{%PROLIFIC_PID%}}&STUDY_ID={{%STUDY_ID%}}&SESSION_ID={{%SESSION_ID%}}`,
  );

  // Not ready: the budget and a walk through the study are missing (the model check may have run earlier).
  await expect(launch.getByTestId('check-budget')).toContainText(': not done');
  await expect(launch.getByTestId('check-preview')).toContainText(': not done');
  await expect(launch.getByRole('button', { name: 'Publish on Prolific' })).toBeDisabled();

  await admin.call('PUT', `/api/experiments/${experiment.id}/chat-limits`, { overrides: { budgetUsd: 50 } });
  const preview = await admin.call<{ path: string }>('POST', `/api/experiments/${experiment.id}/previews`, {
    condition: 'mmr',
  });
  await request.post('/api/preview/redeem', { data: { token: preview.path.split('#')[1] } });
  await page.getByRole('button', { name: 'Test model' }).click();
  await expect(page.getByText('The scripted offline model answered', { exact: false })).toBeVisible();
  await launch.getByRole('button', { name: 'Check again' }).click();
  for (const item of ['model', 'budget', 'preview', 'draft', 'codes', 'open', 'connection']) {
    await expect(launch.getByTestId(`check-${item}`)).toContainText(': done');
  }
  await expect(launch.getByRole('button', { name: 'Publish on Prolific' })).toBeEnabled();

  await launch.getByRole('button', { name: 'Publish on Prolific' }).click();
  const dialog = page.getByRole('dialog', { name: 'Publish on Prolific?' });
  await dialog.getByRole('button', { name: 'Publish now' }).click();
  await expect(launch.getByTestId('prolific-launch-state')).toContainText(
    `Published on Prolific as study ${study?.id}`,
  );
  expect(study?.status).toBe('ACTIVE');

  // Two participants join by the link; Prolific says one returned, one awaits review (read one per page).
  for (const [i, status] of ['RETURNED', 'AWAITING REVIEW'].entries()) {
    const pid = `PIDLAUNCH${i}${Date.now().toString(36)}`.toUpperCase();
    const session = `SESSLAUNCH${i}${Date.now().toString(36)}`.toUpperCase();
    const context = await browser.newContext();
    const participant = await context.newPage();
    await participant.goto(
      `/prolific?PROLIFIC_PID=${pid}&STUDY_ID=${study?.id}&SESSION_ID=${session}&EXPERIMENT_ID=${experiment.id}`,
    );
    await expect(participant).toHaveURL(/\/consent$/);
    await context.close();
    fake.submissions.push({ id: session, participant_id: pid, study_id: study?.id ?? '', status });
  }
  await launch.getByRole('button', { name: 'Refresh from Prolific' }).click();
  const sync = launch.getByTestId('prolific-sync');
  await expect(sync).toContainText('Read 2 submissions from Prolific: 2 matched to participants.');
  await expect(sync.getByText('Returned').locator('xpath=following-sibling::dd')).toHaveText('1');
  await expect(sync.getByText('Awaiting review').locator('xpath=following-sibling::dd')).toHaveText('1');
  expect(fake.requests.filter((r) => r.path.startsWith('/api/v1/submissions/')).length).toBeGreaterThanOrEqual(2);

  const { violations } = await analyzeSettled(page);
  expect(violations.map((v) => `${v.id} ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);

  await page.setViewportSize({ width: 1280, height: 800 });
  await launch.scrollIntoViewIfNeeded();
  await launch.screenshot({ path: test.info().outputPath('prolific-launch-laptop.png') });
  await page.setViewportSize({ width: 390, height: 844 });
  await launch.scrollIntoViewIfNeeded();
  await launch.screenshot({ path: test.info().outputPath('prolific-launch-phone.png') });
});
