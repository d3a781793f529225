import { expect, test, type Page } from '@playwright/test';
import { loginAsAdmin } from '../support/admin';
import { AdminApi } from '../support/api';
import { analyzeSettled } from '../support/axe';
import { doStep } from '../support/flow';
import { landingUrl, logInOnLanding } from '../support/participant';

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

// Issue 31's done-when: built from blank by the UI alone (three arms, one without a chat, a piped prompt, a screen
// rule, two post questions), each arm previewed, pinned on the experiment page, then walked on a phone to its code.
test('done when: build from blank, preview each arm, pin, and a participant walks it on a phone', async ({
  page,
  browser,
  request,
}) => {
  test.setTimeout(420_000);
  await page.setViewportSize({ width: 1280, height: 800 });
  const pageErrors: string[] = [];
  page.on('pageerror', (error) => pageErrors.push(error.message));
  await loginAsAdmin(page);
  await page.goto('/admin/studies');
  await page.getByRole('button', { name: 'Start a blank study' }).click();
  await expect(page).toHaveURL(/\/admin\/studies\/[0-9a-f-]{36}$/);
  const versionUrl = page.url();
  await expect(page.getByRole('heading', { name: 'Study builder' })).toBeVisible();
  const json = page.getByLabel('Definition (JSON)', { exact: true });

  // Three conditions; the third will have no chat.
  await page.getByText('Conditions', { exact: true }).click();
  await page.getByRole('button', { name: 'Add condition' }).click();
  await page.getByRole('button', { name: 'Add condition' }).click();
  await page.getByLabel('Label of condition 1', { exact: true }).fill('Supportive AI');
  await page.getByLabel('Label of condition 2', { exact: true }).fill('Challenging AI');
  await page.getByLabel('Label of condition 3', { exact: true }).fill('No chat');
  await page.getByText('Pathways', { exact: true }).click();
  await page.getByRole('button', { name: 'Add pathway' }).click();
  await page.getByLabel('Key of pathway 2', { exact: true }).fill('ceiling');
  await page.getByLabel('Label of pathway 2', { exact: true }).fill('Screened out at the ceiling');

  // Step 2: a free-text belief and a 0-100 slider.
  await addStep(page, 'Questions');
  await page.getByLabel('Title of step 2', { exact: true }).fill('Your view');
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

  // Step 3: the screen rule, and the end of its pathway (last).
  await addStep(page, 'Screen');
  await page.getByLabel('answer of step 3', { exact: true }).selectOption('rating');
  await page.getByLabel('comparison of step 3', { exact: true }).selectOption({ label: 'is more than' });
  await page.getByLabel('value of step 3', { exact: true }).fill('95');
  await page.getByLabel('end with pathway of step 3', { exact: true }).selectOption('ceiling');
  await addStep(page, 'End');
  await page.getByLabel('Title of step 5', { exact: true }).fill('Thank you for your time');

  // Step 4 randomise, step 5 the chat for two arms, its prompt piping the belief.
  await addStep(page, 'Randomise');
  await addStep(page, 'Chat');
  await page.getByLabel('This condition chats in step 5 (arm_3)', { exact: true }).uncheck();
  const prompt = page.getByLabel('System prompt of condition main in step 5', { exact: true });
  await prompt.fill('Support the participant in thinking about the four-day work week. They believe: ');
  await page.getByRole('button', { name: 'Insert answer into System prompt of condition main in step 5' }).click();
  await page
    .getByRole('list', { name: /Answers given before this step, for System prompt/ })
    .getByRole('button', { name: '{{belief}}' })
    .click();
  await page
    .getByLabel('System prompt of condition arm_2 in step 5', { exact: true })
    .fill('Challenge, politely, what the participant believes about the four-day work week.');

  // Step 6: two post questions.
  await addStep(page, 'Questions');
  await page.getByLabel('Title of step 6', { exact: true }).fill('After the conversation');
  const p1 = ' of question 1 in step 6';
  await page.getByLabel(`Type${p1}`, { exact: true }).selectOption('slider');
  await page.getByLabel(`Answer key${p1}`, { exact: true }).fill('rating_after');
  await page.getByLabel(`Question text${p1}`, { exact: true }).fill('And now: how good an idea is it, from 0 to 100?');
  await page.getByRole('group', { name: 'Questions of step 6' }).getByRole('button', { name: 'Add question' }).click();
  const p2 = ' of question 2 in step 6';
  await page.getByLabel(`Answer key${p2}`, { exact: true }).fill('why_after');
  await page.getByLabel(`Question text${p2}`, { exact: true }).fill('What, if anything, changed your mind?');

  await expect(page.getByText(/The definition has \d+ problem/)).toBeHidden();
  await shoot(page, 'done-when-built');
  await page.getByRole('button', { name: 'Save', exact: true }).click();
  await expect(page.getByText('Saved.')).toBeVisible();
  const saved = JSON.parse(await json.inputValue()) as {
    conditions: { id: string }[];
    steps: { type: string; arms?: Record<string, { systemPrompt: string }> }[];
  };
  expect(saved.conditions.map((c) => c.id)).toEqual(['main', 'arm_2', 'arm_3']);
  expect(saved.steps.map((s) => s.type)).toEqual([
    'page',
    'questions',
    'screen',
    'randomise',
    'chat',
    'questions',
    'end',
    'end',
  ]);
  expect(Object.keys(saved.steps[4]?.arms ?? {})).toEqual(['main', 'arm_2']);
  expect(saved.steps[4]?.arms?.main?.systemPrompt).toContain('{{belief}}');

  // An experiment (made through the API: the experiments page is not this issue's), the version pinned by the UI.
  const admin = await AdminApi.login(request);
  const experiment = await admin.createExperiment(`E2E done-when ${Date.now()}`);
  const versionId = versionUrl.split('/').at(-1) ?? '';
  await page.goto(`/admin/experiments/${experiment.id}`);
  const versionCard = page.getByRole('heading', { name: 'Study version' }).locator('..');
  await versionCard.getByLabel('Pin another version').selectOption(versionId);
  await versionCard.getByRole('button', { name: 'Pin version' }).click();
  // The page turns into a flow experiment's page (its card remounts, so no 'pinned' message): it runs the version.
  await expect(versionCard.getByRole('link')).toHaveAttribute('href', `/admin/studies/${versionId}`);
  // The flow's page: its codes, set by the UI.
  await page.getByRole('textbox', { name: /\(complete\)/ }).fill('DONE-COMPLETE');
  await page.getByRole('textbox', { name: /\(ceiling\)/ }).fill('DONE-CEILING');
  await page.getByRole('button', { name: 'Save codes' }).click();
  await expect(page.getByText('Codes saved.')).toBeVisible();
  await page.screenshot({ path: '/tmp/builder-done-when-experiment.png', fullPage: true });
  expect((await analyzeSettled(page)).violations).toEqual([]);

  // Each arm previewed as a participant, in a fresh phone-sized browser: the chat only for the arms that have it.
  const phone = { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true };
  for (const arm of ['main', 'arm_2', 'arm_3']) {
    await page.getByRole('button', { name: `Preview ${arm}`, exact: true }).click();
    const link = page.getByRole('textbox', { name: 'Preview link' });
    await expect(link).toHaveValue(/\/preview#/);
    await expect(page.getByText(new RegExp(`in condition ${arm};`))).toBeVisible();
    const url = await link.inputValue();
    const context = await browser.newContext(phone);
    const preview = await context.newPage();
    await preview.clock.install();
    await preview.goto(url);
    await expect(preview).toHaveURL(new RegExp(`/flow/${experiment.id}$`));
    const seen: string[] = [];
    for (let i = 0; i < 12; i++) {
      const kind = await doStep(preview, request);
      seen.push(kind);
      if (kind === 'end') break;
    }
    expect(seen).toEqual(
      arm === 'arm_3' ? ['page', 'questions', 'questions', 'end'] : ['page', 'questions', 'chat', 'questions', 'end'],
    );
    await expect(preview.getByText('DONE-COMPLETE')).toBeVisible();
    await preview.screenshot({ path: `/tmp/builder-done-when-preview-${arm}.png`, fullPage: true });
    await context.close();
  }

  // A participant on a phone, from the Prolific link to the code.
  const [credential] = await admin.credentials(experiment.id, 1);
  if (!credential) throw new Error('no credential generated');
  const setup = {
    experimentId: experiment.id,
    codes: { complete: 'DONE-COMPLETE', ceiling: 'DONE-CEILING' },
    credential,
    prolificPid: `PID${Date.now().toString(36)}DONE`.toUpperCase(),
  };
  const context = await browser.newContext(phone);
  const participant = await context.newPage();
  await participant.clock.install();
  await participant.goto(landingUrl(setup));
  await logInOnLanding(participant, setup);
  await expect(participant).toHaveURL(new RegExp(`/flow/${experiment.id}$`));
  const walked: string[] = [];
  for (let i = 0; i < 12; i++) {
    const kind = await doStep(participant, request);
    walked.push(kind);
    if (i === 0) expect((await analyzeSettled(participant)).violations).toEqual([]);
    if (kind === 'end') break;
  }
  expect(walked.at(-1)).toBe('end');
  await expect(participant.getByText('DONE-COMPLETE')).toBeVisible();
  expect((await analyzeSettled(participant)).violations).toEqual([]);
  await participant.screenshot({ path: '/tmp/builder-done-when-participant-end.png', fullPage: true });
  await context.close();

  // Compare two versions: a colleague's copy (made through the API) without the screen rule, post questions moved.
  const changed = structuredClone(saved) as unknown as {
    title: string;
    steps: { id: string; type: string; title?: string }[];
  };
  const screenRule = changed.steps.splice(2, 1)[0];
  const [post] = changed.steps.splice(4, 1);
  if (!post || !screenRule) throw new Error('unexpected steps');
  post.title = 'Your view now';
  changed.steps.splice(1, 0, post);
  const copyLabel = `Colleague's copy ${Date.now()}`;
  const copy = await admin.call<{ id: string }>('POST', '/api/admin/study-versions', {
    label: copyLabel,
    definition: changed,
  });
  await page.goto('/admin/studies');
  await page.getByRole('combobox', { name: 'From' }).selectOption(versionId);
  await page.getByRole('combobox', { name: 'To' }).selectOption(copy.id);
  const steps = page.getByRole('region', { name: 'Steps' });
  await expect(steps).toContainText(`${screenRule.id} (screen): removed (was at position 3)`);
  await expect(steps).toContainText(`${post.id} (questions): moved from position 6 to 2; 1 field changed`);
  await expect(steps).toContainText('title: After the conversation → Your view now');
  await page.getByRole('heading', { name: 'Compare two versions' }).scrollIntoViewIfNeeded();
  await page.screenshot({ path: '/tmp/builder-done-when-diff.png', fullPage: true });
  expect((await analyzeSettled(page)).violations).toEqual([]);
  expect(pageErrors).toEqual([]);
});
