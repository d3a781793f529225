import { expect, type APIRequestContext, type Page } from '@playwright/test';
import type { GeneratedCredential } from '@studychat/contracts/web';
import { AdminApi } from './api';

export interface ParticipantSetup {
  experimentId: string;
  codes: Record<string, string>;
  credential: GeneratedCredential;
  prolificPid: string;
}

/** A fresh experiment with all three codes and one study login, made through the admin API. */
export async function setupParticipant(request: APIRequestContext): Promise<ParticipantSetup> {
  const admin = await AdminApi.login(request);
  const experiment = await admin.createExperiment();
  const [credential] = await admin.credentials(experiment.id, 1);
  if (!credential) throw new Error('no credential generated');
  const prolificPid = `PID${Date.now().toString(36)}${Math.random().toString(36).slice(2, 8)}`.toUpperCase();
  return { experimentId: experiment.id, codes: experiment.codes, credential, prolificPid };
}

export function landingUrl(setup: Pick<ParticipantSetup, 'experimentId' | 'prolificPid'>): string {
  return `/prolific?PROLIFIC_PID=${setup.prolificPid}&EXPERIMENT_ID=${setup.experimentId}&STUDY_ID=study-e2e&SESSION_ID=session-e2e`;
}

/**
 * Lands from Prolific, logs in with the study login and arrives on /consent, or where `arrive` says (a
 * participant who has started before continues at their step).
 */
export async function landAndLogin(page: Page, setup: ParticipantSetup, arrive: RegExp = /\/consent$/): Promise<void> {
  await page.goto(landingUrl(setup));
  await logInOnLanding(page, setup);
  await expect(page).toHaveURL(arrive);
}

/** Fills and sends the study login form of the landing page. */
export async function logInOnLanding(page: Page, setup: ParticipantSetup): Promise<void> {
  await page.getByLabel('Study email').fill(setup.credential.email);
  await page.getByLabel('Password').fill(setup.credential.password);
  await page.getByRole('button', { name: 'Log In' }).click();
}

/** Consent, then the entry choice. */
export async function consentAndChoose(page: Page, choice: 'questions' | 'confirm'): Promise<void> {
  await page.getByRole('button', { name: 'I Consent' }).click();
  await expect(page).toHaveURL(/\/entry$/);
  await page
    .getByRole('button', {
      name: choice === 'questions' ? 'I have questions or concerns about MMR' : 'No concerns about the MMR vaccine',
    })
    .click();
  // The entry page records the choice before it moves on; wait for that, so a test that navigates next
  // does not race it.
  await expect(page).toHaveURL(choice === 'questions' ? /\/baseline-intention$/ : /\/completion/);
}

/** Picks a point on the 7-point scale by its visible number. */
export async function choosePoint(page: Page, value: number): Promise<void> {
  await page.getByRole('radio', { name: new RegExp(`^${value}\\b`) }).check({ force: true });
}

/** The completion page shows this code. */
export async function expectCode(page: Page, code: string): Promise<void> {
  await expect(page).toHaveURL(/\/completion/);
  await expect(page.getByRole('heading', { name: 'Study Complete!' })).toBeVisible();
  await expect(page.getByText(code, { exact: true })).toBeVisible();
}
