import { expect, test } from '@playwright/test';
import { choosePoint, consentAndChoose, expectCode, landAndLogin, setupParticipant } from '../support/participant';

test('confirm pathway: no concerns leads straight to the exitnoqualms code', async ({ page, request }) => {
  const setup = await setupParticipant(request);
  await landAndLogin(page, setup);
  await expect(page.getByRole('heading', { name: 'Informed Consent' })).toBeVisible();
  await consentAndChoose(page, 'confirm');
  const code = setup.codes.exitnoqualms ?? '';
  await expectCode(page, code);
  await expect(page.getByRole('link', { name: /Submit code on Prolific/ })).toHaveAttribute(
    'href',
    `https://app.prolific.com/submissions/complete?cc=${code}`,
  );

  // Completed participants are sent back to the code from any study page.
  await page.goto('/entry');
  await expectCode(page, code);
});

test('ceiling pathway: an intention of 7 ends with the exitceiling code', async ({ page, request }) => {
  const setup = await setupParticipant(request);
  await landAndLogin(page, setup);
  await consentAndChoose(page, 'questions');
  await expect(page).toHaveURL(/\/baseline-intention$/);
  const cont = page.getByRole('button', { name: 'Continue' });
  await expect(cont).toBeDisabled();
  await choosePoint(page, 7);
  await expect(cont).toBeEnabled();
  await cont.click();
  await expectCode(page, setup.codes.exitceiling ?? '');
});

test('missing URL parameters are named and login is refused', async ({ page }) => {
  await page.goto('/prolific?PROLIFIC_PID=abc');
  await expect(page.getByRole('alert')).toHaveText(
    'Missing required URL parameters: EXPERIMENT_ID. Please use the link provided by Prolific.',
  );
  await page.getByLabel('Study email').fill('someone@study.test');
  await page.getByLabel('Password').fill('whatever-password');
  await page.getByRole('button', { name: 'Log In' }).click();
  await expect(page.getByText('Cannot login without required Prolific and Experiment IDs from the URL.')).toBeVisible();
  await expect(page).toHaveURL(/\/prolific/);
});

test('a logged-in visitor is asked to log out first, and Log Out returns to the same URL', async ({
  page,
  request,
}) => {
  const setup = await setupParticipant(request);
  await landAndLogin(page, setup);
  // Someone else's link (another Prolific id): the same participant's own link offers to continue instead (issue 34).
  const url = `/prolific?PROLIFIC_PID=${setup.prolificPid}X&EXPERIMENT_ID=${setup.experimentId}`;
  await page.goto(url);
  await expect(page.getByText(/You are already logged in/)).toBeVisible();
  await page.getByRole('button', { name: 'Log Out' }).click();
  await expect(page.getByLabel('Study email')).toBeVisible();
  expect(new URL(page.url()).search).toBe(new URL(url, 'http://x').search);
  expect(await page.evaluate(() => localStorage.getItem('token'))).toBeNull();
  expect(await page.evaluate(() => sessionStorage.getItem('EXPERIMENT_ID'))).toBe(setup.experimentId);
});

test('a wrong password shows the message and guidance to use the study login', async ({ page, request }) => {
  const setup = await setupParticipant(request);
  await page.goto(`/prolific?PROLIFIC_PID=${setup.prolificPid}&EXPERIMENT_ID=${setup.experimentId}`);
  await page.getByLabel('Study email').fill(setup.credential.email);
  await page.getByLabel('Password').fill('not-the-password');
  await page.getByRole('button', { name: 'Log In' }).click();
  await expect(page.getByRole('alert')).toContainText('Invalid email or password');
  await expect(page.getByRole('alert')).toContainText('study email and password');
});
