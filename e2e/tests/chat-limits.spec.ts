import { expect, test, type Page } from '@playwright/test';
import { loginAsAdmin } from '../support/admin';
import { AdminApi } from '../support/api';
import { chatInput, chatLog, reachChat, replyFinished, sendRound } from '../support/chat';
import { setupParticipant } from '../support/participant';
import { analyzeSettled } from '../support/axe';

// The chat's limits and faults as a participant meets them (issue 11).

async function axeViolations(page: Page) {
  return (await analyzeSettled(page)).violations.map((v) => ({ id: v.id, nodes: v.nodes.length }));
}

async function startChat(page: Page) {
  await page.getByRole('button', { name: 'Start Conversation' }).click();
  await replyFinished(page);
  await expect(chatLog(page).locator('li').first()).toContainText(/\w{3,}/);
}

test('the message cap ends the chat with a clear message, and Proceed opens without the engagement goal', async ({
  page,
  request,
}) => {
  const setup = await setupParticipant(request);
  const admin = await AdminApi.login(request);
  await admin.call('PUT', `/api/experiments/${setup.experimentId}/chat-limits`, { overrides: { maxMessages: 2 } });
  await page.clock.install();
  await reachChat(page, request, setup);
  await startChat(page);
  await expect(page.getByText('You can send 2 more messages in this chat.')).toBeVisible();

  await sendRound(page, 'Is the vaccine safe?', 1);
  await expect(page.getByText('This is the last message you can send in this chat.')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Proceed' })).toBeDisabled();
  await sendRound(page, 'What about side effects?', 2);

  await expect(page.getByText('You have sent as many messages as this chat allows')).toBeVisible();
  await expect(chatInput(page)).toHaveCount(0);
  await expect(page.getByText('Rounds: 2/3')).toBeVisible();
  const proceed = page.getByRole('button', { name: 'Proceed' });
  await expect(proceed).toBeEnabled();
  expect(await axeViolations(page)).toEqual([]);

  // The same after a reload: the server says the chat has ended.
  await page.reload();
  await expect(page.getByText('You have sent as many messages as this chat allows')).toBeVisible();
  await expect(proceed).toBeEnabled();
  await page.screenshot({ path: '/tmp/i11-chat-capped.png' });
  await proceed.click();
  await expect(page).toHaveURL(/\/post-survey$/);
});

test.describe('on a phone', () => {
  test.use({ viewport: { width: 360, height: 740 }, isMobile: true, hasTouch: true });

  test('a long message is counted, refused with a clear reason and never cut; the server refuses it too', async ({
    page,
    request,
  }) => {
    const setup = await setupParticipant(request);
    await page.clock.install();
    await reachChat(page, request, setup);
    await startChat(page);

    await chatInput(page).fill('x'.repeat(799));
    await expect(page.getByText(/\/ 1,000/)).toHaveCount(0);
    await chatInput(page).fill('x'.repeat(850));
    await expect(page.getByText('850 / 1,000')).toBeVisible();

    // 1,200 characters stay 1,200 characters: nothing is cut.
    const long = 'Why should my child get the vaccine? '.repeat(40).slice(0, 1200);
    await chatInput(page).fill(long);
    await expect(chatInput(page)).toHaveValue(long);
    await expect(page.getByText('1,200 / 1,000')).toBeVisible();
    await expect(
      page.getByText('Your message is 200 characters too long: this chat takes at most 1,000.'),
    ).toBeVisible();
    await expect(page.getByRole('button', { name: 'Send' })).toBeDisabled();
    await chatInput(page).press('Enter');
    await expect(chatLog(page).locator('li')).toHaveCount(1);
    await page.screenshot({ path: '/tmp/i11-chat-too-long-phone.png' });
    expect(await axeViolations(page)).toEqual([]);

    // Sent anyway (another client), the server refuses it with 400 and the same kind of words.
    const refused = await page.evaluate(
      async ({ text }) => {
        const threadId = Object.entries(localStorage).find(([k]) => k.endsWith('_threadId'))?.[1] ?? '';
        const res = await fetch(`/api/chat/threads/${threadId}/messages`, {
          method: 'POST',
          headers: {
            authorization: `Bearer ${localStorage.getItem('token') ?? ''}`,
            'content-type': 'application/json',
          },
          body: JSON.stringify({ message: text }),
        });
        return { status: res.status, body: (await res.json()) as { error: string; code: string } };
      },
      { text: long },
    );
    expect(refused).toEqual({
      status: 400,
      body: {
        error:
          'Your message is 1,200 characters long; this chat takes at most 1,000. Please shorten it and send it again.',
        code: 'MESSAGE_TOO_LONG',
      },
    });

    // Shortened, it goes.
    await chatInput(page).fill(long.slice(0, 1000));
    await chatInput(page).press('Enter');
    await expect(page.getByText('Rounds: 1/3')).toBeVisible();
  });
});

test('leaving right after Send: on return the message is there and its reply arrives', async ({ page, request }) => {
  const setup = await setupParticipant(request);
  await page.clock.install();
  await reachChat(page, request, setup);
  await startChat(page);

  const question = 'My child is due for the MMR shot next week. Is it safe?';
  await chatInput(page).fill(question);
  await chatInput(page).press('Enter');
  await page.waitForTimeout(300);
  await page.goto('/');
  await page.goto(`/experiment/${setup.experimentId}/chat`);

  await expect(chatLog(page)).toContainText(question);
  await replyFinished(page);
  await expect(chatLog(page).locator('li')).toHaveCount(3);
  await expect(chatLog(page).locator('li').last()).toHaveText(/^Assistant said:.{60,}/);
  await expect(page.getByText('Rounds: 1/3')).toBeVisible();
  await expect(page.getByRole('alert')).toHaveCount(0);
  // The chat goes on as usual.
  await sendRound(page, 'Thanks. What should I watch for afterwards?', 2);
});

test('an admin sets an experiment’s chat limits and budget, and tests the model', async ({ page, request }) => {
  const admin = await AdminApi.login(request);
  const experiment = await admin.createExperiment(`Limits E2E ${Date.now()}`);
  await loginAsAdmin(page);
  await page.goto(`/admin/experiments/${experiment.id}`);
  const card = page.getByRole('heading', { name: 'Chat limits and budget' }).locator('..');
  await expect(card.getByText('Spent on the chat so far: $0.00 (no budget set).')).toBeVisible();
  const messages = card.getByLabel('Messages per participant');
  await expect(messages).toHaveAttribute('placeholder', 'Default: 30');
  await messages.fill('12');
  await card.getByLabel('Budget (USD)').fill('5');
  await card.getByRole('button', { name: 'Save limits' }).click();
  await expect(card.getByText('Chat limits saved.')).toBeVisible();
  await expect(card.getByText(/Applies now: 12\./)).toBeVisible();
  await expect(card.getByText('Spent $0.00 of $5.00 (0%).')).toBeVisible();
  const saved = await admin.call<{ overrides: { maxMessages: number | null } }>(
    'GET',
    `/api/experiments/${experiment.id}/chat-limits`,
  );
  expect(saved.overrides.maxMessages).toBe(12);

  await page.getByRole('button', { name: 'Test model' }).click();
  await expect(page.getByText('The scripted offline model answered: no real AI model is connected')).toBeVisible();
  expect(await axeViolations(page)).toEqual([]);
  await page.screenshot({ path: '/tmp/i11-admin-chat-limits.png', fullPage: true });
});
