import { expect, test, type Locator, type Page } from '@playwright/test';
import { loginAsAdmin } from '../support/admin';
import { AdminApi } from '../support/api';
import { analyzeSettled } from '../support/axe';
import { doStep } from '../support/flow';
import { landingUrl, logInOnLanding } from '../support/participant';

// Issue 31, the builder's last forms: a reading step's sections per condition, a combined (all / any) screen rule,
// and Insert answer in content blocks, built by the UI alone, saved and read back, then walked by a participant on a
// phone (the pipes filled in); the save bar never covers the builder's heading on a phone.
test.describe.configure({ timeout: 180_000 });

const PHONE = { width: 390, height: 844 };
const LAPTOP = { width: 1280, height: 800 };

const addStep = async (page: Page, type: string) => {
  await page.getByLabel('Type of the new step', { exact: true }).selectOption({ label: type });
  await page.getByRole('button', { name: 'Add step' }).click();
};

/** A phone and a laptop screenshot of `part` (scrolled to), with an axe check of the page at each. */
async function shoot(page: Page, part: Locator, name: string): Promise<void> {
  for (const [label, size] of [
    ['phone', PHONE],
    ['laptop', LAPTOP],
  ] as const) {
    await page.setViewportSize(size);
    await part.scrollIntoViewIfNeeded();
    await part.screenshot({ path: `/tmp/builder-forms-${name}-${label}.png` });
    await page.screenshot({ path: `/tmp/builder-forms-${name}-${label}-view.png` });
    const { violations } = await analyzeSettled(page);
    expect(
      violations.map((v) => `${name} ${label}: ${v.id} ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`),
    ).toEqual([]);
  }
  await page.setViewportSize(LAPTOP);
}

/** Whether two boxes on screen overlap. */
async function overlap(a: Locator, b: Locator): Promise<boolean> {
  const [x, y] = [await a.boundingBox(), await b.boundingBox()];
  if (!x || !y) throw new Error('not on screen');
  return x.x < y.x + y.width && y.x < x.x + x.width && x.y < y.y + y.height && y.y < x.y + x.height;
}

test('a researcher builds reading sections, a combined screen rule and a piped block, saves, reloads, and it runs', async ({
  page,
  browser,
  request,
}) => {
  await page.setViewportSize(LAPTOP);
  const pageErrors: string[] = [];
  page.on('pageerror', (error) => pageErrors.push(error.message));
  await loginAsAdmin(page);
  await page.goto('/admin/studies');
  await page.getByRole('button', { name: 'Start a blank study' }).click();
  await expect(page).toHaveURL(/\/admin\/studies\/[0-9a-f-]{36}$/);
  const heading = page.getByRole('heading', { name: 'Study builder' });
  await expect(heading).toBeVisible();
  const save = page.getByRole('button', { name: 'Save', exact: true });

  // The save bar never covers the heading on a phone: scrolled so the heading is at the screen's bottom, and at
  // the top of the page.
  await page.setViewportSize(PHONE);
  for (const at of ['bottom', 'top'] as const) {
    await heading.evaluate((h, where) => {
      const top = h.getBoundingClientRect().top + window.scrollY;
      window.scrollTo(0, where === 'top' ? 0 : top - window.innerHeight + h.getBoundingClientRect().height + 8);
    }, at);
    await page.screenshot({ path: `/tmp/builder-forms-heading-${at}-phone.png` });
    if (await heading.isVisible()) expect(await overlap(heading, save.locator('..'))).toBe(false);
  }
  await page.setViewportSize(LAPTOP);

  await page.getByText('Conditions', { exact: true }).click();
  await page.getByRole('button', { name: 'Add condition' }).click();
  await page.getByText('Pathways', { exact: true }).click();
  await page.getByRole('button', { name: 'Add pathway' }).click();
  await page.getByLabel('Key of pathway 2', { exact: true }).fill('screened');
  await page.getByLabel('Label of pathway 2', { exact: true }).fill('Screened out');

  // Step 2: age (a number) and smoker (a choice).
  await addStep(page, 'Questions');
  const q1 = ' of question 1 in step 2';
  await page.getByLabel(`Type${q1}`, { exact: true }).selectOption('number');
  await page.getByLabel(`Answer key${q1}`, { exact: true }).fill('age');
  await page.getByLabel(`Question text${q1}`, { exact: true }).fill('How old are you?');
  await page.getByRole('group', { name: 'Questions of step 2' }).getByRole('button', { name: 'Add question' }).click();
  const q2 = ' of question 2 in step 2';
  await page.getByLabel(`Type${q2}`, { exact: true }).selectOption('single');
  await page.getByLabel(`Answer key${q2}`, { exact: true }).fill('smoker');
  await page.getByLabel(`Question text${q2}`, { exact: true }).fill('Do you smoke?');

  // Step 3: "If any of these holds: age is less than 18; smoker is b", end with pathway screened.
  await addStep(page, 'Screen');
  await page.getByRole('button', { name: 'Combine with another comparison of step 3' }).click();
  await expect(page.getByLabel('answer of comparison 2 in step 3', { exact: true })).toBeFocused();
  await page.getByLabel('value of comparison 2 in step 3', { exact: true }).fill('b');
  await page.getByLabel('answer of comparison 1 in step 3', { exact: true }).selectOption('age');
  await page
    .getByLabel('comparison of comparison 1 in step 3', { exact: true })
    .selectOption({ label: 'is less than' });
  await page.getByLabel('value of comparison 1 in step 3', { exact: true }).fill('18');
  // By the keyboard: all -> any.
  await page.getByLabel('All or any of the rule of step 3', { exact: true }).focus();
  await page.keyboard.press('ArrowDown');
  await expect(page.getByLabel('All or any of the rule of step 3', { exact: true })).toHaveValue('any');
  await page.getByLabel('end with pathway of step 3', { exact: true }).selectOption('screened');
  await addStep(page, 'End');
  await shoot(page, page.getByRole('group', { name: 'Rule of step 3' }), 'rule');

  // Step 4 randomise; step 5 a timed reading: two sections for main, one for arm_2, a pipe in a section's text.
  await addStep(page, 'Randomise');
  await addStep(page, 'Timed reading');
  const main = ' of condition main in step 5';
  await page.getByLabel(`Title of section 1${main}`, { exact: true }).fill('Why it matters');
  await page.getByLabel(`Least seconds on screen of section 1${main}`, { exact: true }).fill('3');
  const text = page.getByLabel(`Paragraph 1 of block 1 of section 1${main}`, { exact: true });
  await text.fill('You told us you are ');
  await page.getByRole('button', { name: `Insert answer into Paragraph 1 of block 1 of section 1${main}` }).click();
  const menu = page.getByRole('list', {
    name: `Answers given before this step, for Paragraph 1 of block 1 of section 1${main}`,
  });
  await expect(menu.getByRole('button')).toHaveText(['{{age}}', '{{smoker}}']);
  await shoot(page, page.getByRole('group', { name: `Sections${main}` }), 'reading-pipe');
  await menu.getByRole('button', { name: '{{age}}' }).click();
  await expect(text).toHaveValue('You told us you are {{age}}');
  await page
    .getByRole('group', { name: `Sections${main}` })
    .getByRole('button', { name: 'Add section' })
    .last()
    .click();
  await page.getByLabel(`Title of section 2${main}`, { exact: true }).fill('What we found');
  await page.getByRole('button', { name: `Move section 2 up${main}` }).click();
  await expect(page.getByLabel(`Title of section 1${main}`, { exact: true })).toHaveValue('What we found');
  // An out-of-range least seconds: the contract's message at the field, Save waits.
  const seconds = page.getByLabel(`Least seconds on screen of section 1${main}`, { exact: true });
  await seconds.fill('0');
  await expect(page.getByText('must be 1 to 3600').first()).toBeVisible();
  await expect(seconds).toHaveAttribute('aria-invalid', 'true');
  await expect(save).toBeDisabled();
  await seconds.fill('4');
  await shoot(page, page.getByRole('listitem').filter({ has: page.getByRole('button', { name: /^5\. / }) }), 'reading');

  // The end step's text pipes the age.
  await page.getByRole('button', { name: /^6\. End/ }).click();
  const end = page.getByLabel('Paragraph 1 of block 1 of step 6', { exact: true });
  await end.fill('Thank you. Age given: ');
  await page.getByRole('button', { name: 'Insert answer into Paragraph 1 of block 1 of step 6' }).click();
  await page
    .getByRole('list', { name: /Answers given before this step, for Paragraph 1 of block 1 of step 6/ })
    .getByRole('button', { name: '{{age}}' })
    .click();
  await expect(end).toHaveValue('Thank you. Age given: {{age}}');

  await expect(page.getByText(/The definition has \d+ problem/)).toBeHidden();
  await save.click();
  await expect(page.getByText('Saved.')).toBeVisible();

  await page.reload();
  await expect(heading).toBeVisible();
  const saved = JSON.parse(await page.getByLabel('Definition (JSON)', { exact: true }).inputValue()) as {
    steps: Record<string, unknown>[];
  };
  expect(saved.steps.map((s) => s.type)).toEqual(['page', 'questions', 'screen', 'randomise', 'reading', 'end', 'end']);
  expect(saved.steps[2]).toMatchObject({
    when: {
      any: [
        { key: 'age', op: 'lt', value: 18 },
        { key: 'smoker', op: 'eq', value: 'b' },
      ],
    },
    pathway: 'screened',
  });
  expect(saved.steps[4]).toMatchObject({
    sections: {
      main: [
        { id: 'section-2', title: 'What we found', minSeconds: 4 },
        {
          id: 'section-1',
          title: 'Why it matters',
          minSeconds: 3,
          blocks: [{ paragraphs: ['You told us you are {{age}}'] }],
        },
      ],
      arm_2: [{ id: 'section-1', minSeconds: 30 }],
    },
  });
  expect(saved.steps[5]).toMatchObject({ blocks: [{ paragraphs: ['Thank you. Age given: {{age}}'] }] });
  // The forms show what was saved.
  await page.getByRole('button', { name: /^3\. Screen/ }).click();
  await expect(page.getByLabel('All or any of the rule of step 3', { exact: true })).toHaveValue('any');
  await page.getByRole('button', { name: /^5\. Timed reading/ }).click();
  await expect(page.getByLabel(`Title of section 2${main}`, { exact: true })).toHaveValue('Why it matters');
  expect(pageErrors).toEqual([]);

  // It runs: pinned to an experiment (through the API), a participant on a phone answers age 34 and the first choice
  // (a: the rule's "any" holds for neither), reads the sections with the age piped in, and ends with it piped too.
  const admin = await AdminApi.login(request);
  const experiment = await admin.createExperiment(`E2E builder forms ${Date.now()}`);
  const versionId = page.url().split('/').at(-1) ?? '';
  await admin.call('PUT', `/api/experiments/${experiment.id}/study-version`, { study_version_id: versionId });
  const codes = { complete: `FORMS-${experiment.id.slice(0, 6)}`, screened: `OUT-${experiment.id.slice(0, 6)}` };
  await admin.call('PUT', `/api/experiments/${experiment.id}/flow-codes`, { codes });
  const [credential] = await admin.credentials(experiment.id, 1);
  if (!credential) throw new Error('no credential generated');
  const setup = {
    experimentId: experiment.id,
    codes,
    credential,
    prolificPid: `PID${Date.now().toString(36)}FORMS`.toUpperCase(),
  };
  const context = await browser.newContext({ viewport: PHONE, isMobile: true, hasTouch: true });
  const participant = await context.newPage();
  await participant.clock.install();
  await participant.goto(landingUrl(setup));
  await logInOnLanding(participant, setup);
  const walked: string[] = [];
  let sawPipe = false;
  for (let i = 0; i < 10; i++) {
    if (await participant.getByText('You told us you are 34').isVisible()) sawPipe = true;
    const kind = await doStep(participant, request);
    walked.push(kind);
    if (kind === 'end') break;
  }
  // consent, questions, the reading's sections (two for main, one for arm_2), the end.
  expect(walked[0]).toBe('page');
  expect(walked[1]).toBe('questions');
  expect(walked.at(-1)).toBe('end');
  expect([5, 4]).toContain(walked.length);
  if (walked.length === 5) expect(sawPipe).toBe(true);
  await expect(participant.getByText('Thank you. Age given: 34')).toBeVisible();
  await expect(participant.getByText(codes.complete)).toBeVisible();
  await participant.screenshot({ path: '/tmp/builder-forms-participant-end-phone.png', fullPage: true });
  await context.close();
});
