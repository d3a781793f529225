import { expect, type APIRequestContext, type Page } from '@playwright/test';
import type { FlowDefinition, StudyVersion } from '@studychat/contracts/web';
import { AdminApi } from './api';
import { chatInput, replyFinished } from './chat';
import { passTime } from './clock';
import type { ParticipantSetup } from './participant';

/** An experiment running `flow` (a template), with a code per pathway and one study login. */
export async function setupFlow(
  request: APIRequestContext,
  flow: FlowDefinition,
): Promise<ParticipantSetup & { codes: Record<string, string> }> {
  const admin = await AdminApi.login(request);
  const experiment = await admin.createExperiment(`E2E ${flow.id} ${Date.now()}`);
  const version = await admin.call<StudyVersion>('POST', '/api/admin/study-versions', {
    label: `${flow.title} ${Date.now()}`,
    definition: flow,
  });
  await admin.call('PUT', `/api/experiments/${experiment.id}/study-version`, { study_version_id: version.id });
  const codes = Object.fromEntries(
    flow.pathways.map((p) => [p.key, `${p.key.toUpperCase()}-${experiment.id.slice(0, 6)}`]),
  );
  await admin.call('PUT', `/api/experiments/${experiment.id}/flow-codes`, { codes });
  const [credential] = await admin.credentials(experiment.id, 1);
  if (!credential) throw new Error('no credential generated');
  const prolificPid = `PID${Date.now().toString(36)}${Math.random().toString(36).slice(2, 8)}`.toUpperCase();
  return { experimentId: experiment.id, codes, credential, prolificPid };
}

const ANSWER = 'I think about this often, and I have read a little about it over the years.';
const CHAT = [
  'What is the strongest evidence on this question, and how sure can anyone be about it?',
  'Which part of that evidence would you weigh most, and why would someone disagree with it?',
  'Thank you. What would be a fair summary of where the evidence stands today for most people?',
];

/** Answers every question on the page as a person would: a tap, the keyboard on a slider, typing. */
export async function answerQuestions(page: Page): Promise<void> {
  const questions = page.locator('[id^="question-"]');
  for (let i = 0; i < (await questions.count()); i++) {
    const q = questions.nth(i);
    const choice = q.getByRole('radio').or(q.getByRole('checkbox')).first();
    if ((await choice.count()) > 0) {
      // The option's visible label, as a finger taps it (the native control is visually hidden).
      await q.locator(`label[for="${await choice.getAttribute('id')}"]`).click();
      await expect(choice).toBeChecked();
    } else if ((await q.getByRole('slider').count()) > 0) {
      await q.getByRole('slider').focus();
      await page.keyboard.press('ArrowRight');
    } else if ((await q.getByRole('spinbutton').count()) > 0) await q.getByRole('spinbutton').fill('34');
    else await q.getByRole('textbox').fill(ANSWER);
  }
}

export type FlowStepSeen = 'page' | 'questions' | 'ai_text' | 'chat' | 'end';

/** Which kind of step the page shows, read from one snapshot of the page (a step's parts may arrive one by one). */
export async function stepOnScreen(page: Page): Promise<FlowStepSeen> {
  for (let attempt = 0; attempt < 100; attempt++) {
    const kind = await page.evaluate((): FlowStepSeen | null => {
      const main = document.querySelector('main');
      const texts = (selector: string) => [...document.querySelectorAll(selector)].map((e) => e.textContent?.trim());
      if (texts('p').includes('Your completion code')) return 'end';
      if (texts('button').includes('Proceed')) return 'chat';
      if (texts('label').includes('The text (you may correct it)')) return 'ai_text';
      if (document.querySelector('[id^="question-"]')) return 'questions';
      if (main?.querySelector('button')) return 'page';
      return null;
    });
    if (kind) return kind;
    await page.waitForTimeout(100);
  }
  throw new Error('no step on screen');
}

/** Does one step as a participant would; returns the kind of step it was. */
export async function doStep(page: Page, request: APIRequestContext): Promise<FlowStepSeen> {
  const kind = await stepOnScreen(page);
  const heading = await page.getByRole('heading', { level: 1 }).first().innerText();
  switch (kind) {
    case 'page': {
      const wait = page.getByText(/You can continue in (\d+) s\./);
      if (await wait.isVisible()) {
        const seconds = Number((await wait.innerText()).match(/(\d+)/)?.[1] ?? '0');
        await passTime(page, request, (seconds + 1) * 1000);
      }
      await page.getByRole('main').getByRole('button').first().click();
      break;
    }
    case 'questions':
      await answerQuestions(page);
      await page.getByRole('main').locator('button[type="submit"]').click();
      break;
    case 'ai_text':
      await expect(page.getByRole('textbox')).not.toHaveValue('');
      await page.getByRole('main').getByRole('button').last().click();
      break;
    case 'chat': {
      if (await page.getByRole('button', { name: 'Start Conversation' }).isVisible()) {
        await page.getByRole('button', { name: 'Start Conversation' }).click();
      }
      for (const message of CHAT) {
        await replyFinished(page);
        await chatInput(page).fill(message);
        await chatInput(page).press('Enter');
        await replyFinished(page);
      }
      await page.getByRole('button', { name: 'Proceed' }).click();
      break;
    }
    case 'end':
      return kind;
  }
  // The next step replaces this one.
  await expect(page.getByRole('heading', { level: 1 }).first()).not.toHaveText(heading);
  return kind;
}
