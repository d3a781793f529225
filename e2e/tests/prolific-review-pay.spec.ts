import { expect, test, type APIRequestContext } from '@playwright/test';
import type { GeneratedCredential, LoginResult } from '@studychat/contracts/web';
import { startFakeProlific, webhook, type FakeProlific } from '../../apps/server/test/fakes/prolific-fake';
import { PROLIFIC_FAKE_PORT } from '../playwright.config';
import { loginAsAdmin } from '../support/admin';
import { AdminApi } from '../support/api';
import { analyzeSettled } from '../support/axe';

// Review and pay on Prolific (docs/decisions/0089), in Chromium against the fake Prolific: an admin rejects one
// participant with a category and a message of 100+ characters after a confirmation, then prepares bonuses from a
// pasted CSV, checks the preview and pays, double-clicking the confirmation: Prolific is paid once. Laptop and phone
// screenshots are kept with the test's output. The connection is cleared at the end (other specs expect none).

const STUDY = 'STUDYREVIEWPAY1';
const SECRET = 'e2e-review-pay-webhook-secret';
const MESSAGE =
  'Thank you for taking part. Your submission reached the end in under a minute, too quickly to have read the study.';

let fake: FakeProlific;
test.beforeAll(async () => {
  fake = await startFakeProlific({ port: PROLIFIC_FAKE_PORT });
});
test.afterAll(async () => {
  await fake.close();
});

test('an admin rejects with a reason and pays bonuses once, on a laptop and a phone', async ({
  page,
  request,
}, info) => {
  test.setTimeout(90_000);
  const admin = await AdminApi.login(request);
  const experiment = await admin.createExperiment(`Review and pay ${Date.now()}`);
  try {
    await admin.call('PUT', '/api/admin/prolific', { apiToken: fake.token, webhookSecret: SECRET });
    await admin.call('PUT', `/api/experiments/${experiment.id}/prolific-study`, { studyId: STUDY });
    const pids: string[] = [];
    for (const credential of await admin.credentials(experiment.id, 2)) {
      pids.push(await joinWithPid(request, experiment.id, credential));
    }
    const [rejectPid, bonusPid] = pids as [string, string];
    for (const [index, pid] of pids.entries()) {
      const submission = `SUBREVIEWPAY${index}${Date.now().toString(36)}`.toUpperCase();
      fake.submissions.push({ id: submission, participant_id: pid, study_id: STUDY, status: 'AWAITING REVIEW' });
      const delivery = webhook(SECRET, { resource_id: submission, participant_id: pid, status: 'AWAITING REVIEW' });
      const res = await request.post('/api/prolific/webhooks', { headers: delivery.headers, data: delivery.payload });
      expect(await res.json()).toMatchObject({ outcome: 'matched' });
    }

    await page.setViewportSize({ width: 1280, height: 900 });
    await loginAsAdmin(page);
    await page.goto(`/admin/experiments/${experiment.id}`);

    // Reject one participant: the count climbs to 100, then a confirmation names how many.
    await page.getByLabel('Prolific ids to reject (one per line)').fill(rejectPid);
    await page.getByLabel("Reason (Prolific's category)").selectOption({ label: 'Completed too quickly' });
    await page.getByLabel('Message to the participant').fill(MESSAGE.slice(0, 60));
    await expect(page.getByTestId('reject-count')).toContainText('60 / 100 characters (40 more needed)');
    await expect(page.getByRole('button', { name: 'Reject…' })).toBeDisabled();
    await page.getByLabel('Message to the participant').fill(MESSAGE);
    await page.getByRole('button', { name: 'Reject…' }).click();
    const rejectDialog = page.getByRole('dialog', { name: 'Reject 1 participant on Prolific?' });
    await rejectDialog.getByRole('button', { name: 'Reject 1 submission' }).click();
    await expect(page.getByTestId('prolific-rejected')).toContainText('Rejected 1 submission on Prolific.');
    expect(fake.submissions.find((s) => s.participant_id === rejectPid)?.status).toBe('REJECTED');

    // Bonuses from a pasted list: preview, then pay with a double click on the confirmation.
    await page.getByLabel('Reason (kept in our records)').fill('Thank you for a thoughtful conversation');
    await page.getByLabel('A list (Prolific id, amount)').check();
    await page.getByLabel('Lines: Prolific id,amount').fill(`${bonusPid},0.75\n${rejectPid},0.25`);
    await page.getByRole('button', { name: 'Prepare bonuses' }).click();
    const preview = page.getByTestId('bonus-preview');
    await expect(preview).toContainText('2 participants, £1.00 in all (prepared, not paid)');
    await preview.scrollIntoViewIfNeeded();
    await page.screenshot({ path: info.outputPath('bonus-preview-laptop.png'), fullPage: false });
    const { violations } = await analyzeSettled(page);
    expect(violations.map((v) => `${v.id} ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);

    await page.setViewportSize({ width: 390, height: 844 });
    await preview.scrollIntoViewIfNeeded();
    await page.screenshot({ path: info.outputPath('bonus-preview-phone.png'), fullPage: false });
    await page.getByRole('button', { name: 'Pay £1.00 to 2 participants…' }).click();
    const payDialog = page.getByRole('dialog', { name: 'Pay £1.00 to 2 participants?' });
    await page.screenshot({ path: info.outputPath('bonus-confirm-phone.png'), fullPage: false });
    await payDialog.getByRole('button', { name: 'Pay £1.00 to 2 participants' }).dblclick();
    await expect(page.getByTestId('bonus-paid')).toContainText('Paid £1.00 to 2 participants on Prolific.');
    await page.screenshot({ path: info.outputPath('bonus-paid-phone.png'), fullPage: false });
    expect(fake.bonusSetUps).toHaveLength(1);
    expect(fake.bonusSetUps[0]?.csv_bonuses.split('\n').sort()).toEqual(
      [`${bonusPid},0.75`, `${rejectPid},0.25`].sort(),
    );
    expect([...fake.paid.values()]).toEqual([1]);
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.getByTestId('reject-count').scrollIntoViewIfNeeded();
    await page.screenshot({ path: info.outputPath('review-laptop.png'), fullPage: false });
  } finally {
    await admin.call('DELETE', '/api/admin/prolific');
  }
});

/** A study login that joins the experiment with a Prolific id (its assignment), as the landing would. */
async function joinWithPid(
  request: APIRequestContext,
  experimentId: string,
  credential: GeneratedCredential,
): Promise<string> {
  const login = await request.post('/api/auth/login', {
    data: { email: credential.email, password: credential.password },
  });
  const { token, user } = (await login.json()) as LoginResult;
  const pid = `PIDPAY${Math.random().toString(36).slice(2, 12)}`.toUpperCase();
  const res = await request.post('/api/participants', {
    headers: { authorization: `Bearer ${token}` },
    data: { user_id: user.id, experiment_id: experimentId, prolific_pid: pid },
  });
  expect(res.ok(), await res.text()).toBe(true);
  return pid;
}
