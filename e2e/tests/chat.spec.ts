import { expect, test, type Locator, type Page } from '@playwright/test';
import { chatInput, chatLog, reachChat, replyFinished, sendRound } from '../support/chat';
import { choosePoint, expectCode, setupParticipant } from '../support/participant';
import { analyzeSettled } from '../support/axe';

const QUESTIONS = [
  'My child is due for the MMR shot next week and I am worried about the side effects. What are they?',
  'How likely is a fever or a seizure after the dose, compared with what measles itself can do?',
  'Thanks. What should I watch for in the days after the appointment?',
];

async function axeViolations(page: Page) {
  return (await analyzeSettled(page)).violations.map((v) => ({ id: v.id, nodes: v.nodes.length }));
}

test('complete pathway through the chat: three rounds, reload restores, Proceed, post-survey, code', async ({
  page,
  request,
}) => {
  const setup = await setupParticipant(request);
  await page.clock.install();
  await reachChat(page, request, setup);

  // Before a thread exists: the Start Conversation screen, Proceed disabled.
  const proceed = page.getByRole('button', { name: 'Proceed' });
  await expect(proceed).toBeDisabled();
  await expect(page.getByText('Engagement: 0/100')).toBeVisible();
  expect(await axeViolations(page)).toEqual([]);
  // By keyboard: Start Conversation, then focus is in the message box.
  await page.getByRole('button', { name: 'Start Conversation' }).focus();
  await page.keyboard.press('Enter');
  await expect(chatInput(page)).toBeFocused();

  // The opening message streams in.
  const firstBubble = chatLog(page).locator('li').first();
  await expect(firstBubble).toContainText(/\w{3,}/);
  await expect(chatLog(page).getByText('The assistant is typing…')).toHaveCount(0);
  const opening = (await firstBubble.innerText()).trim();

  await sendRound(page, QUESTIONS[0] ?? '', 1);
  await expect(chatLog(page).locator('li')).toHaveCount(3);
  await expect(chatLog(page)).toContainText(QUESTIONS[0] ?? '');
  await expect(proceed).toBeDisabled();

  // A reload mid-chat restores the conversation and its progress from storage and the server.
  await page.reload();
  await expect(chatLog(page).locator('li')).toHaveCount(3);
  await expect(chatLog(page)).toContainText(QUESTIONS[0] ?? '');
  await expect(chatLog(page)).toContainText(opening.replace(/^Assistant said:\s*/, '').slice(0, 30));
  await expect(page.getByText('Rounds: 1/3')).toBeVisible();

  // With the chat's local storage gone, the page shows the same thread from the server at once.
  await page.evaluate((id) => {
    for (const k of ['threadId', 'messages', 'rounds', 'chars', 'points', 'complete'])
      localStorage.removeItem(`experiment_${id}_${k}`);
  }, setup.experimentId);
  await page.reload();
  await expect(page.getByRole('button', { name: 'Start Conversation' })).toHaveCount(0);
  await expect(chatLog(page).locator('li')).toHaveCount(3);
  await expect(page.getByText('Rounds: 1/3')).toBeVisible();

  await sendRound(page, QUESTIONS[1] ?? '', 2);
  await expect(proceed).toBeDisabled();
  await sendRound(page, QUESTIONS[2] ?? '', 3);
  await expect(chatLog(page).locator('li')).toHaveCount(7);

  // 3 rounds and 30 + 0.5 x characters >= 100: complete.
  await expect(page.getByText('Engagement: 100/100')).toBeVisible();
  await expect(page.getByText('You may select Proceed to finish the study, or keep chatting')).toBeVisible();
  await expect(proceed).toBeEnabled();
  await page.screenshot({ path: '/tmp/h4-chat-desktop.png' });
  expect(await axeViolations(page)).toEqual([]);

  await proceed.focus();
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/\/post-survey$/);
  const leftovers = await page.evaluate(
    (id) =>
      Object.keys(localStorage).filter(
        (k) => k.startsWith(`experiment_${id}_`) && /thread|messages|rounds|chars|points|complete/.test(k),
      ),
    setup.experimentId,
  );
  expect(leftovers).toEqual([]);

  await choosePoint(page, 6);
  await page.getByRole('button', { name: 'Finish' }).click();
  await expect(page.getByText('Thank you! Your responses have been recorded. Redirecting...')).toBeVisible();
  await page.clock.runFor(1500);
  await expectCode(page, setup.codes.complete ?? '');
});

test.describe('on a phone', () => {
  test.use({ viewport: { width: 360, height: 740 }, isMobile: true, hasTouch: true });

  test('paste is blocked with a hint, Shift+Enter adds a line, the newest message and the input stay in view', async ({
    page,
    request,
    context,
  }) => {
    const setup = await setupParticipant(request);
    await page.clock.install();
    await reachChat(page, request, setup);
    await expect(page.getByRole('button', { name: 'Start Conversation' })).toBeVisible();
    await page.screenshot({ path: '/tmp/h4-chat-phone-start.png' });
    await page.getByRole('button', { name: 'Start Conversation' }).click();
    await replyFinished(page);
    await expect(chatLog(page).locator('li').first()).toContainText(/\w{3,}/);

    // A real paste (Ctrl+V from the clipboard) puts nothing in the box and explains why.
    await context.grantPermissions(['clipboard-read', 'clipboard-write']);
    await page.evaluate(() => navigator.clipboard.writeText('Copied from somewhere else'));
    await chatInput(page).click();
    const pasteReport = page.waitForResponse((r) => r.url().endsWith('/api/chat/paste-blocked'));
    await page.keyboard.press('ControlOrMeta+V');
    await expect(chatInput(page)).toHaveValue('');
    await expect(page.getByText('Pasting is turned off here.')).toBeVisible();
    // The server records the blocked paste by its length only (decision 0028).
    const report = await pasteReport;
    expect(report.request().postDataJSON()).toEqual({
      experimentId: setup.experimentId,
      length: 'Copied from somewhere else'.length,
    });
    expect(await report.json()).toEqual({ recorded: true });

    // Shift+Enter adds a line; the box grows but not past 150 px.
    await chatInput(page).pressSequentially('Line one');
    await page.keyboard.press('Shift+Enter');
    await chatInput(page).pressSequentially('Line two');
    await expect(chatInput(page)).toHaveValue('Line one\nLine two');
    await chatInput(page).fill(Array.from({ length: 12 }, (_, i) => `Line ${i + 1}`).join('\n'));
    const height = await chatInput(page).evaluate((el) => el.getBoundingClientRect().height);
    expect(height).toBeLessThanOrEqual(150);
    expect(height).toBeGreaterThan(100);

    // A refused send (reply already in progress) and a network drop leave the page usable, text kept.
    const sendUrl = /\/api\/chat\/threads\/[^/]+\/messages$/;
    await page.route(sendUrl, (route) =>
      route.request().method() === 'POST'
        ? route.fulfill({
            status: 409,
            contentType: 'application/json',
            body: JSON.stringify({ error: 'A reply is already being written.', code: 'REPLY_IN_PROGRESS' }),
          })
        : route.fallback(),
    );
    await chatInput(page).fill('Typed by me');
    await chatInput(page).press('Enter');
    await expect(page.getByRole('alert')).toHaveText(/Failed to send message: A reply is already being written\./);
    await expect(chatInput(page)).toHaveValue('Typed by me');
    await page.unroute(sendUrl);
    await page.route(sendUrl, (route) =>
      route.request().method() === 'POST' ? route.abort('internetdisconnected') : route.fallback(),
    );
    await chatInput(page).press('Enter');
    await expect(page.getByRole('alert')).toHaveText(/Failed to send message: Could not reach the server/);
    await expect(chatInput(page)).toHaveValue('Typed by me');
    await page.unroute(sendUrl);
    await expect(page.getByText('Rounds: 0/3')).toBeVisible();

    for (const [i, text] of QUESTIONS.entries()) await sendRound(page, text, i + 1);
    await expect(page.getByRole('alert')).toHaveCount(0);
    await expect(page.getByRole('button', { name: 'Proceed' })).toBeEnabled();

    // The newest message, the input and Proceed are on screen; nothing is wider than the phone.
    const inView = async (locator: Locator) => {
      const box = await locator.boundingBox();
      return box !== null && box.y >= 0 && box.y + box.height <= 740 + 1;
    };
    await expect.poll(() => inView(chatLog(page).locator('li').last())).toBe(true);
    expect(await inView(chatInput(page))).toBe(true);
    expect(await inView(page.getByRole('button', { name: 'Proceed' }))).toBe(true);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
    await page.screenshot({ path: '/tmp/h4-chat-phone.png' });
    expect(await axeViolations(page)).toEqual([]);
  });
});
