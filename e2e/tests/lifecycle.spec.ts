import { expect, test, type Browser, type Page } from '@playwright/test';
import {
  EXPERIMENT_CLOSED_TEXT,
  EXPERIMENT_PAUSED_TEXT,
  LOGIN_REVOKED_TEXT,
  QUOTA_FULL_TEXT,
} from '@studychat/contracts/web';
import { completeParticipantViaApi, loginAsAdmin } from '../support/admin';
import { AdminApi } from '../support/api';
import { analyzeSettled } from '../support/axe';
import {
  choosePoint,
  consentAndChoose,
  expectCode,
  landAndLogin,
  landingUrl,
  type ParticipantSetup,
} from '../support/participant';

// Issue 34 (docs/decisions/0077): an experiment paused mid-study lets the participant inside finish while a new
// one sees the paused page; a study login revoked while in use is logged out and told it was withdrawn; once every
// quota is full, a newcomer sees the closed page.

/** The admin in a browser of their own (the participant's token lives in the other one). */
async function adminPage(browser: Browser): Promise<Page> {
  const page = await (await browser.newContext()).newPage();
  await loginAsAdmin(page);
  return page;
}

/** Screenshots of the page on a phone and a laptop (in /tmp), each axe clean; the laptop size stays. */
async function shoot(page: Page, name: string): Promise<void> {
  for (const [label, size] of [
    ['phone', { width: 390, height: 844 }],
    ['laptop', { width: 1280, height: 800 }],
  ] as const) {
    await page.setViewportSize(size);
    await page.screenshot({ path: `/tmp/lifecycle-${name}-${label}.png`, fullPage: true });
    expect((await analyzeSettled(page)).violations.map((v) => `${name} ${label}: ${v.id}`)).toEqual([]);
  }
}

const pid = (tag: string) => `PID${tag}${Date.now().toString(36)}`.toUpperCase();

test('pausing mid-study: the participant inside finishes, a new one sees the paused page', async ({
  page,
  browser,
  request,
}) => {
  test.setTimeout(120_000);
  const api = await AdminApi.login(request);
  const experiment = await api.createExperiment(`Pause mid-study ${Date.now()}`);
  const [inside, newcomer] = await api.credentials(experiment.id, 2);
  if (!inside || !newcomer) throw new Error('no credentials generated');
  const first: ParticipantSetup = {
    experimentId: experiment.id,
    codes: experiment.codes,
    credential: inside,
    prolificPid: pid('IN'),
  };
  await landAndLogin(page, first);

  // The researcher pauses the study from its page.
  const admin = await adminPage(browser);
  await admin.goto(`/admin/experiments/${experiment.id}`);
  await admin.getByRole('button', { name: 'Pause' }).click();
  await expect(admin.getByText(/New participants are told the study is paused/)).toBeVisible();
  await expect(admin.getByRole('button', { name: 'Open' })).toBeVisible();

  // The participant inside goes on to the end and gets their code.
  await consentAndChoose(page, 'confirm');
  await expectCode(page, experiment.codes.exitnoqualms ?? '');

  // A new participant from Prolific is told the study is paused, and offered no login.
  const late = await (await browser.newContext()).newPage();
  await late.goto(landingUrl({ experimentId: experiment.id, prolificPid: pid('NEW') }));
  await expect(late.getByText('This study is paused.')).toBeVisible();
  await expect(late.getByText(EXPERIMENT_PAUSED_TEXT)).toBeVisible();
  await expect(late.getByLabel('Study email')).toHaveCount(0);
  expect((await analyzeSettled(late)).violations.map((v) => v.id)).toEqual([]);
  await shoot(late, 'paused-landing');
  const logins = await api.call<{ logins: { email: string; status: string }[] }>(
    'GET',
    `/api/experiments/${experiment.id}/logins`,
  );
  expect(logins.logins.find((l) => l.email === newcomer.email)?.status).toBe('unused');

  // Closing asks first; the experiment page stays axe clean with the dialog open.
  await admin.getByRole('button', { name: 'Close' }).click();
  const dialog = admin.getByRole('dialog', { name: 'Close this experiment?' });
  await expect(dialog).toBeVisible();
  expect((await analyzeSettled(admin)).violations.map((v) => v.id)).toEqual([]);
  await dialog.getByRole('button', { name: 'Close experiment' }).click();
  await expect(admin.getByText(/New participants are told the study is closed/)).toBeVisible();
  await shoot(admin, 'status-closed');
});

test('revoking a login in use logs its participant out, and the login then says it was withdrawn', async ({
  page,
  browser,
  request,
}) => {
  test.setTimeout(120_000);
  const api = await AdminApi.login(request);
  const experiment = await api.createExperiment(`Revoke in use ${Date.now()}`);
  const [credential] = await api.credentials(experiment.id, 1);
  if (!credential) throw new Error('no credential generated');
  const setup: ParticipantSetup = {
    experimentId: experiment.id,
    codes: experiment.codes,
    credential,
    prolificPid: pid('RV'),
  };
  await landAndLogin(page, setup);

  const admin = await adminPage(browser);
  await admin.goto(`/admin/experiments/${experiment.id}`);
  await admin.getByRole('button', { name: `Revoke ${credential.email}` }).click();
  const dialog = admin.getByRole('dialog', { name: 'Revoke this study login?' });
  await expect(dialog).toContainText(credential.email);
  await dialog.getByRole('button', { name: 'Revoke login' }).click();
  await expect(
    admin.getByText(`Revoked ${credential.email}: it can no longer log in, and 1 open session(s) were ended.`),
  ).toBeVisible();

  // The participant's next step finds the session ended: they are sent to log in again.
  await page.getByRole('button', { name: 'I Consent' }).click();
  await expect(page).toHaveURL(/\/login/);
  // From the Prolific link again, the right password is told the login was withdrawn.
  await page.goto(landingUrl(setup));
  await page.getByLabel('Study email').fill(credential.email);
  await page.getByLabel('Password').fill(credential.password);
  await page.getByRole('button', { name: 'Log In' }).click();
  await expect(page.getByText('This study login has been withdrawn.')).toBeVisible();
  await expect(page.getByText(LOGIN_REVOKED_TEXT)).toBeVisible();
  expect((await analyzeSettled(page)).violations.map((v) => v.id)).toEqual([]);
  await shoot(page, 'revoked-landing');
});

test('a full quota: set on the experiment page, the arms fill, one inside is told, a newcomer sees the closed page', async ({
  page,
  browser,
  request,
}) => {
  test.setTimeout(180_000);
  const api = await AdminApi.login(request);
  const experiment = await api.createExperiment(`Full quota ${Date.now()}`);
  const [first, second, third] = await api.credentials(experiment.id, 3);
  if (!first || !second || !third) throw new Error('no credentials generated');

  const admin = await adminPage(browser);
  await admin.goto(`/admin/experiments/${experiment.id}`);
  await admin.getByRole('button', { name: 'Set quotas' }).click();
  for (const [i, condition] of ['mmr', 'control'].entries()) {
    await admin.getByRole('button', { name: 'Add quota' }).click();
    const quota = admin.getByRole('group', { name: `Quota ${i + 1}` });
    await quota.getByLabel('Condition').selectOption(condition);
    await quota.getByLabel('Most participants').fill('1');
  }
  expect((await analyzeSettled(admin)).violations.map((v) => v.id)).toEqual([]);
  await admin.getByRole('button', { name: 'Save quotas' }).click();
  await expect(admin.getByText('Quotas saved.')).toBeVisible();

  // A third participant comes in while places are left and reaches the pre-survey.
  const inside = await (await browser.newContext()).newPage();
  const insideSetup: ParticipantSetup = {
    experimentId: experiment.id,
    codes: experiment.codes,
    credential: third,
    prolificPid: pid('INSIDE'),
  };
  await landAndLogin(inside, insideSetup);
  await consentAndChoose(inside, 'questions');
  await choosePoint(inside, 3);
  await inside.getByRole('button', { name: 'Continue' }).click();
  await expect(inside).toHaveURL(/\/pre-survey$/);

  // Two participants fill one place in each arm.
  const a = await completeParticipantViaApi(request, experiment.id, first);
  const b = await completeParticipantViaApi(request, experiment.id, second);
  expect([a.condition, b.condition].sort()).toEqual(['control', 'mmr']);

  await admin.reload();
  await expect(admin.getByText('Every place is taken: new participants are told the study is closed.')).toBeVisible();
  await shoot(admin, 'quotas-full');

  // The one inside is assigned no place: a page that says so, with nothing to send again.
  await inside.getByText('35-44', { exact: true }).click();
  await inside.getByText('Male', { exact: true }).click();
  await inside.getByText('Liberal', { exact: true }).click();
  await inside.getByRole('button', { name: 'Submit Survey' }).click();
  await expect(inside.getByRole('heading', { name: 'All places in this study are taken.' })).toBeVisible();
  await expect(inside.getByText(QUOTA_FULL_TEXT)).toBeVisible();
  await expect(inside.getByRole('button', { name: 'Submit Survey' })).toHaveCount(0);
  await shoot(inside, 'places-taken');

  await page.goto(landingUrl({ experimentId: experiment.id, prolificPid: pid('FULL') }));
  await expect(page.getByText('This study is closed to new participants.')).toBeVisible();
  await expect(page.getByText(EXPERIMENT_CLOSED_TEXT)).toBeVisible();
  await expect(page.getByLabel('Study email')).toHaveCount(0);
});
