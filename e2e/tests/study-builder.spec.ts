import { expect, test, type Page } from '@playwright/test';
import { loginAsAdmin } from '../support/admin';
import { analyzeSettled } from '../support/axe';

// Issue 31 (its core): a researcher builds a study from blank by the builder's forms alone, with no JSON typed:
// a free-text question, a slider, a screen rule, two arms of which one has no chat, a piped prompt, an end.
test.describe.configure({ timeout: 150_000 });

/** Screenshots at laptop and tablet widths, with an axe check at each. */
async function shoot(page: Page, name: string): Promise<void> {
  for (const [label, size] of [
    ['laptop', { width: 1280, height: 800 }],
    ['tablet', { width: 820, height: 1180 }],
  ] as const) {
    await page.setViewportSize(size);
    await page.screenshot({ path: `/tmp/builder-${name}-${label}.png`, fullPage: true });
    await page.screenshot({ path: `/tmp/builder-${name}-${label}-view.png` });
    const { violations } = await analyzeSettled(page);
    expect(
      violations.map((v) => `${name} ${label}: ${v.id} ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`),
    ).toEqual([]);
  }
  await page.setViewportSize({ width: 1280, height: 800 });
}

const addStep = async (page: Page, type: string) => {
  await page.getByLabel('Type of the new step', { exact: true }).selectOption({ label: type });
  await page.getByRole('button', { name: 'Add step' }).click();
};

test('a researcher builds a study from blank in the builder and saves it', async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  const pageErrors: string[] = [];
  page.on('pageerror', (error) => pageErrors.push(error.message));
  await loginAsAdmin(page);
  await page.goto('/admin/studies');
  await page.getByRole('button', { name: 'Start a blank study' }).click();
  await expect(page).toHaveURL(/\/admin\/studies\/[0-9a-f-]{36}$/);
  await expect(page.getByRole('heading', { name: 'Study builder' })).toBeVisible();
  const json = page.getByLabel('Definition (JSON)', { exact: true });
  const definition = async () => JSON.parse(await json.inputValue()) as Record<string, unknown>;

  // Two conditions and a second pathway.
  await page.getByText('Conditions', { exact: true }).click();
  await page.getByRole('button', { name: 'Add condition' }).click();
  await page.getByLabel('Label of condition 1', { exact: true }).fill('AI chat');
  await page.getByLabel('Label of condition 2', { exact: true }).fill('No chat');
  await page.getByText('Pathways', { exact: true }).click();
  await page.getByRole('button', { name: 'Add pathway' }).click();
  await page.getByLabel('Key of pathway 2', { exact: true }).fill('ceiling');
  await page.getByLabel('Label of pathway 2', { exact: true }).fill('Screened out at the ceiling');

  // A free-text belief and a 0-100 slider on one page of questions.
  await addStep(page, 'Questions');
  const q1 = ' of question 1 in step 2';
  await page.getByLabel(`Answer key${q1}`, { exact: true }).fill('belief');
  await page
    .getByLabel(`Question text${q1}`, { exact: true })
    .fill('In a few words: what do you think of a four-day work week?');
  await page.getByRole('group', { name: 'Questions of step 2' }).getByRole('button', { name: 'Add question' }).click();
  const q2 = ' of question 2 in step 2';
  await page.getByLabel(`Type${q2}`, { exact: true }).selectOption('slider');
  await page.getByLabel(`Answer key${q2}`, { exact: true }).fill('rating');
  await page.getByLabel(`Question text${q2}`, { exact: true }).fill('How good an idea is it, from 0 to 100?');

  // A screen rule written as a sentence: if rating is more than 95, end with pathway ceiling.
  await addStep(page, 'Screen');
  await page.getByLabel('answer of step 3', { exact: true }).selectOption('rating');
  await page.getByLabel('comparison of step 3', { exact: true }).selectOption({ label: 'is more than' });
  await page.getByLabel('value of step 3', { exact: true }).fill('95');
  await page.getByLabel('end with pathway of step 3', { exact: true }).selectOption('ceiling');
  // Its pathway needs an end: the check says so until there is one.
  await expect(page.getByText('the pathway "ceiling" has no end step').first()).toBeVisible();
  await expect(page.getByRole('button', { name: 'Save', exact: true })).toBeDisabled();
  await addStep(page, 'End');
  await page.getByLabel('Title of step 5', { exact: true }).fill('Thank you for your time');

  // Randomise, then a chat for the AI arm only, its prompt piping the belief.
  await addStep(page, 'Randomise');
  await addStep(page, 'Chat');
  await page.getByLabel('This condition chats in step 5 (arm_2)', { exact: true }).uncheck();
  const prompt = page.getByLabel('System prompt of condition main in step 5', { exact: true });
  await prompt.fill('Discuss the four-day work week. The participant believes: ');
  await page.getByRole('button', { name: 'Insert answer into System prompt of condition main in step 5' }).click();
  const menu = page.getByRole('list', { name: /Answers given before this step, for System prompt/ });
  await expect(menu.getByRole('button')).toHaveText(['{{belief}}', '{{rating}}']);
  await menu.getByRole('button', { name: '{{belief}}' }).click();
  await expect(prompt).toHaveValue('Discuss the four-day work week. The participant believes: {{belief}}');

  await expect(page.getByText(/The definition has \d+ problem/)).toBeHidden();
  await shoot(page, 'built');

  // Keyboard: the screen step moves down past the randomise step and keeps focus.
  await page.getByRole('button', { name: 'Move down step 3 (screen)' }).focus();
  await page.keyboard.press('Enter');
  await expect(page.getByRole('button', { name: 'Move down step 4 (screen)' })).toBeFocused();
  await page.keyboard.press('Shift+Tab');
  await page.keyboard.press('Enter');
  await expect(page.getByRole('button', { name: 'Move up step 3 (screen)' })).toBeFocused();

  await page.getByRole('button', { name: 'Save', exact: true }).click();
  await expect(page.getByText('Saved.')).toBeVisible();

  // What was saved, read back after a reload.
  await page.reload();
  await expect(page.getByRole('heading', { name: 'Study builder' })).toBeVisible();
  const saved = (await definition()) as { steps: { id: string; type: string }[]; conditions: unknown[] };
  expect(saved.steps.map((s) => s.type)).toEqual(['page', 'questions', 'screen', 'randomise', 'chat', 'end', 'end']);
  expect(saved.conditions).toHaveLength(2);
  expect(saved.steps[2]).toMatchObject({ when: { key: 'rating', op: 'gt', value: 95 }, pathway: 'ceiling' });
  expect(saved.steps[4]).toMatchObject({
    arms: { main: { systemPrompt: 'Discuss the four-day work week. The participant believes: {{belief}}' } },
  });
  expect(Object.keys((saved.steps[4] as unknown as { arms: object }).arms)).toEqual(['main']);
  await page.getByRole('button', { name: /^5\. Chat/ }).click();
  await shoot(page, 'saved');
  expect(pageErrors).toEqual([]);
});
