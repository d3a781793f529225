import { expect, test } from '@playwright/test';
import type { DetailedParticipantRow, MonitorReply } from '@studychat/contracts/web';
import { loginAsAdmin } from '../support/admin';
import { AdminApi } from '../support/api';
import { chatViaApi, readSections } from '../support/chat';
import { choosePoint, consentAndChoose, expectCode } from '../support/participant';

// Issue 14 (docs/decisions/0045): an admin previews a condition from the experiment page, walks it in a
// private window to the completion code, and the monitor does not count the test run (it lists it, marked, on
// request: decision 0063).
test.describe.configure({ timeout: 150_000 });

test('an admin previews the control condition, walks it to the code, and the monitor does not count it', async ({
  page,
  browser,
  request,
}) => {
  const admin = await AdminApi.login(request);
  const experiment = await admin.createExperiment(`Preview ${Date.now()}`);
  await loginAsAdmin(page);
  await page.goto(`/admin/experiments/${experiment.id}`);
  await page.getByRole('button', { name: 'Preview control' }).click();
  const linkField = page.getByRole('textbox', { name: 'Preview link' });
  await expect(linkField).toHaveValue(/\/preview#[A-Za-z0-9_-]{43}$/);
  const link = await linkField.inputValue();

  // Opened in a tab of the admin's own browser, the link does not replace the admin session.
  const adminToken = await page.evaluate(() => localStorage.getItem('token'));
  const sameBrowser = await page.context().newPage();
  await sameBrowser.goto(link);
  await expect(sameBrowser.getByText(/This browser is already signed in/)).toBeVisible();
  expect(await sameBrowser.evaluate(() => localStorage.getItem('token'))).toBe(adminToken);
  await sameBrowser.close();

  // A private window: the link signs the test participant in and the study starts at consent.
  const context = await browser.newContext();
  const p = await context.newPage();
  await p.clock.install();
  await p.goto(link);
  await expect(p).toHaveURL(/\/consent$/);
  await consentAndChoose(p, 'questions');
  await choosePoint(p, 3);
  await p.getByRole('button', { name: 'Continue' }).click();
  await expect(p).toHaveURL(/\/pre-survey$/);
  await p.getByText('35-44', { exact: true }).click();
  await p.getByText('Male', { exact: true }).click();
  await p.getByText('Liberal', { exact: true }).click();
  await p.getByRole('button', { name: 'Submit Survey' }).click();
  await expect(p.getByText('Thank you! Redirecting...')).toBeVisible();
  await p.clock.runFor(1500);
  await expect(p).toHaveURL(new RegExp(`/experiment/${experiment.id}/static-intro$`));
  // The chosen condition, not a draw.
  expect(await p.evaluate(() => sessionStorage.getItem('assignedCondition'))).toBe('control');
  await expect(p.getByText('rear-facing car seats')).toBeVisible();
  await p.getByRole('button', { name: 'Begin' }).click();
  await readSections(p, request);
  await expect(p).toHaveURL(new RegExp(`/experiment/${experiment.id}/chat$`));
  await chatViaApi(p, request, experiment.id);
  await p.reload();
  await p.getByRole('button', { name: 'Proceed' }).click();
  await expect(p.getByRole('heading', { name: 'Last Step' })).toBeVisible();
  await choosePoint(p, 6);
  await p.getByRole('button', { name: 'Finish' }).click();
  await expect(p.getByText('Thank you! Your responses have been recorded. Redirecting...')).toBeVisible();
  await p.clock.runFor(1500);
  await expectCode(p, experiment.codes.complete ?? '');

  // The link worked once.
  const fresh = await browser.newContext();
  const second = await fresh.newPage();
  await second.goto(link);
  await expect(second.getByText(/expired or has already been used/)).toBeVisible();
  await fresh.close();
  await context.close();

  // The monitor does not count the test run; the participants table shows it marked.
  const monitor = await admin.call<MonitorReply>('GET', `/api/experiments/${experiment.id}/monitor`);
  expect(monitor.participants).toEqual([]);
  expect(monitor.summary.total).toBe(0);
  expect(monitor.funnel.steps.find((s) => s.key === 'joined')?.reached ?? 0).toBe(0);
  // What the preview's chat cost is shown apart, not in the real spend.
  expect(monitor.spend.tokens).toBe(0);
  expect(monitor.spend.previews).toMatchObject({ runs: 1, chats: 1 });
  expect(monitor.spend.previews.tokens).toBeGreaterThan(0);
  await page.reload();
  await expect(page.getByRole('heading', { name: 'Participants (1)' })).toBeVisible();
  await expect(page.getByTitle(/A preview run by an admin/)).toHaveText('test');
  await expect(page.getByTestId('monitor-preview-spend')).toContainText('over 1 of 1 preview runs');
  // On request ("Include test runs", decision 0063) the monitor lists the test run, marked; its counts stay 0.
  await expect(page.getByTestId('monitor-row')).toHaveCount(0);
  await page.getByRole('checkbox', { name: 'Include test runs', exact: true }).check();
  const testRun = page.getByTestId('monitor-row');
  await expect(testRun).toHaveCount(1);
  await expect(testRun.getByText('Test run', { exact: true })).toBeVisible();
  await expect(testRun).toContainText('PREVIEW-');
  await expect(testRun).toContainText('Completed');
  await expect(page.getByTestId('monitor-total')).toHaveText('0');

  // The preview's login is marked in the admin users list.
  const rows = await admin.call<DetailedParticipantRow[]>(
    'GET',
    `/api/experiments/${experiment.id}/participants-detailed`,
  );
  const testUserId = rows.find((r) => r.is_test)?.user_id ?? '';
  expect(testUserId).not.toBe('');
  await page.goto('/admin/users');
  const userRow = page.getByRole('row').filter({ has: page.getByRole('link', { name: testUserId.slice(0, 8) }) });
  await expect(userRow.getByTitle(/A preview's login, made by an admin/)).toHaveText('test');
});
