import { expect, test } from '@playwright/test';
import type { FlowDefinition } from '@studychat/contracts/web';
import { analyzeSettled } from '../support/axe';
import { chatInput, replyFinished } from '../support/chat';
import { passTime } from '../support/clock';
import { doStep, setupFlow } from '../support/flow';
import { landingUrl, logInOnLanding } from '../support/participant';

// A flow's timed steps on a phone (issue 30): a reading step's sections, each on the server's clock, resumed on a
// second device mid-section; a chat arm whose rounds are not enough before its least minutes.

const PHONE = { viewport: { width: 360, height: 740 }, isMobile: true, hasTouch: true };

const timedFlow: FlowDefinition = {
  format: 'flow',
  id: 'timed',
  title: 'A timed study',
  texts: { welcome: 'A study of reading and talking', disclaimer: 'A test study: nothing here is advice.' },
  conditions: [{ id: 'reader', label: 'Reads, then talks' }],
  pathways: [{ key: 'complete', label: 'whole study' }],
  steps: [
    {
      id: 'consent',
      type: 'page',
      title: 'Consent',
      blocks: [{ paragraphs: ['You agree to take part.'] }],
      button: 'I Consent',
      consent: true,
    },
    { id: 'assign', type: 'randomise', weights: { reader: 1 } },
    {
      id: 'read',
      type: 'reading',
      title: 'Please read',
      intro: ['Two short texts follow, each for a few seconds at least.'],
      sections: {
        reader: [
          {
            id: 'first',
            title: 'The first text',
            minSeconds: 8,
            blocks: [{ paragraphs: ['The first text says one thing.'] }],
          },
          {
            id: 'second',
            title: 'The second text',
            minSeconds: 5,
            blocks: [{ paragraphs: ['The second text says another.'] }],
          },
        ],
      },
    },
    {
      id: 'talk',
      type: 'chat',
      title: 'Talk it over',
      intro: 'Talk with the assistant for at least two minutes.',
      arms: {
        reader: {
          systemPrompt: 'Be helpful.',
          fallbackGreeting: 'Hello!',
          completion: { rounds: 1, points: 0, minMinutes: 2 },
          scripted: { opening: 'Hello! What did you make of the texts?', replies: ['I see.'], closing: 'Thank you.' },
        },
      },
    },
    { id: 'done', type: 'end', pathway: 'complete', title: 'Thank you', blocks: [{ paragraphs: ['All done.'] }] },
  ],
};

test.use(PHONE);

test('a reading step resumed on a second device, and a chat that waits for its minutes', async ({
  page,
  browser,
  request,
}) => {
  const setup = await setupFlow(request, timedFlow);
  await page.clock.install();
  await page.goto(landingUrl(setup));
  await logInOnLanding(page, setup);
  await doStep(page, request); // consent

  // The first section: its countdown, Next held until it ends.
  await expect(page.getByText('Section 1 of 2')).toBeVisible();
  await expect(page.getByRole('heading', { name: 'The first text' })).toBeVisible();
  const next = page.getByRole('button', { name: 'Next section' });
  await expect(next).toBeDisabled();
  await expect(page.getByText(/You can continue in \d+ s\./)).toBeVisible();
  expect((await analyzeSettled(page)).violations).toEqual([]);
  await page.screenshot({ path: 'test-results/flow-reading.png', fullPage: true });

  // A second device opens the study mid-section: the same section, counting from when it opened.
  await passTime(page, request, 3_000);
  const second = await browser.newContext(PHONE);
  const other = await second.newPage();
  await other.goto(landingUrl(setup));
  await logInOnLanding(other, setup);
  await expect(other.getByRole('heading', { name: 'The first text' })).toBeVisible();
  await expect(other.getByText(/You can continue in [1-5] s\./)).toBeVisible();
  await second.close();

  await passTime(page, request, 6_000);
  await next.click();
  await expect(page.getByText('Section 2 of 2')).toBeVisible();
  await expect(page.getByRole('heading', { name: 'The second text' })).toBeFocused();
  await passTime(page, request, 6_000);
  await page.getByRole('button', { name: 'Continue' }).click();

  // The chat: one round meets the rule, but Proceed waits for the two minutes, and says so.
  await page.getByRole('button', { name: 'Start Conversation' }).click();
  await replyFinished(page);
  await chatInput(page).fill('I read both texts and I have a question about the second.');
  await chatInput(page).press('Enter');
  await replyFinished(page);
  await expect(page.getByText(/you can proceed in about 2 more minutes/)).toBeVisible();
  const proceed = page.getByRole('button', { name: 'Proceed' });
  await expect(proceed).toBeDisabled();
  await page.screenshot({ path: 'test-results/flow-chat-minutes.png', fullPage: true });
  await passTime(page, request, 121_000);
  await expect(proceed).toBeEnabled();
  await proceed.click();
  await expect(page.getByText(setup.codes.complete ?? '')).toBeVisible();
});
