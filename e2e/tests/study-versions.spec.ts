import { expect, test } from '@playwright/test';
import { loginAsAdmin } from '../support/admin';
import { AdminApi } from '../support/api';
import { chatViaApi, sectionOpened } from '../support/chat';
import { passTime } from '../support/clock';
import { choosePoint, expectCode, landAndLogin } from '../support/participant';
import { SLEEP_MARKDOWN, SLEEP_STUDY } from '../support/sleep-study';

// Issue 14, done when: a second study (another topic, number of sections, timers and questions) is written in
// the admin study editor, pinned to an experiment, and walked end to end to its completion code, with no
// code change.
test.describe.configure({ timeout: 150_000 });

const SLEEP_MESSAGES = [
  'My child keeps getting out of bed after lights out every single night. What can I do about it?',
  'How long before bedtime should we switch off the tablet and the television, realistically?',
];

test('a second study written in the admin editor is pinned and walked to its completion code', async ({
  page,
  browser,
  request,
}, testInfo) => {
  // The researcher: a draft cloned from the built-in study, its definition replaced in the JSON editor.
  await loginAsAdmin(page);
  await page.goto('/admin/studies');
  await page.getByRole('button', { name: 'Clone Built-in MMR study' }).click();
  await expect(page).toHaveURL(/\/admin\/studies\/[0-9a-f-]{36}$/);
  await page.getByLabel('Label', { exact: true }).fill(`Bedtime ${Date.now()}`);
  const label = await page.getByLabel('Label', { exact: true }).inputValue();

  // A mistake is shown inline with its place in the definition, and nothing is saved.
  const broken = structuredClone(SLEEP_STUDY);
  broken.conditions.mmr.sections = broken.conditions.mmr.sections.map((section, i) =>
    i === 0 ? { ...section, minSeconds: 0 } : section,
  );
  const editor = page.getByLabel('Study definition (JSON)');
  await editor.fill(JSON.stringify(broken, null, 2));
  await page.getByRole('button', { name: 'Save version' }).click();
  await expect(page.getByText('conditions.mmr.sections.0.minSeconds')).toBeVisible();
  // The timer's form field fixes it: its part of the form counts the problem, and the field names it.
  await expect(page.locator('summary', { hasText: 'Sections: mmr condition' })).toContainText('1 problem');
  await page.getByText('Sections: mmr condition', { exact: true }).click();
  await expect(page.getByLabel('Minimum seconds of mmr section 1')).toHaveAccessibleDescription(/must be 1 to 3600/);
  await page.getByLabel('Minimum seconds of mmr section 1').fill('6');
  await expect(editor).toHaveValue(/"minSeconds": 6/);
  await page.getByRole('button', { name: 'Save version' }).click();
  await expect(page.getByText('Saved.')).toBeVisible();
  await expect(page.getByRole('heading', { name: label })).toBeVisible();

  // The experiment pins the new version on its page.
  const admin = await AdminApi.login(request);
  const experiment = await admin.createExperiment(`Bedtime experiment ${Date.now()}`);
  const [credential] = await admin.credentials(experiment.id, 1);
  if (!credential) throw new Error('no credential generated');
  await page.goto(`/admin/experiments/${experiment.id}`);
  await page.getByLabel('Pin another version').selectOption({ label });
  await page.getByRole('button', { name: 'Pin version' }).click();
  await expect(page.getByText('Study version pinned.')).toBeVisible();
  await expect(page.getByRole('link', { name: label })).toBeVisible();

  // The participant, in their own browser on a phone-sized screen, reads the second study's pages.
  const context = await browser.newContext({ viewport: { width: 390, height: 844 } });
  const p = await context.newPage();
  await p.clock.install();
  const setup = {
    experimentId: experiment.id,
    codes: experiment.codes,
    credential,
    prolificPid: `PIDSLEEP${Date.now().toString(36)}`.toUpperCase(),
  };
  await landAndLogin(p, setup);
  await expect(p.getByRole('heading', { name: 'Bedtime Study Consent' })).toBeVisible();
  await expect(p.getByText('We study how parents plan their child’s bedtime routine.')).toBeVisible();
  await p.getByRole('button', { name: 'I Consent' }).click();
  await expect(p).toHaveURL(/\/entry$/);
  // The study's own reminder page (its `entry` texts): title, scenario, the reminder it quotes and both choices.
  await expect(p.getByRole('heading', { name: 'Bedtime Reminder' })).toBeVisible();
  await expect(p.getByText('Please imagine your child’s school starts again next week.')).toBeVisible();
  await expect(p.locator('blockquote')).toHaveText(SLEEP_STUDY.entry.reminder);
  await expect(p.getByRole('button', { name: 'No questions about bedtimes' })).toBeVisible();
  await p.getByRole('button', { name: 'I have questions about bedtimes' }).click();
  await expect(p).toHaveURL(/\/baseline-intention$/);
  await expect(p.getByText(SLEEP_STUDY.baseline.question)).toBeVisible();
  await expect(p.locator('blockquote')).toHaveText(SLEEP_STUDY.entry.reminder);
  await choosePoint(p, 4);
  await p.getByRole('button', { name: 'Continue' }).click();
  await expect(p).toHaveURL(/\/pre-survey$/);
  // The second study's own pre-study questions (not the MMR study's age, sex and political views).
  await expect(p.getByRole('heading', { name: 'About Your Family' })).toBeVisible();
  await expect(p.getByText('35-44', { exact: true })).toHaveCount(0);
  const submit = p.getByRole('button', { name: 'Submit Survey' });
  await p.getByText('Two children', { exact: true }).click();
  await expect(submit).toBeDisabled();
  await p.getByText('Between 8 and 9 pm', { exact: true }).click();
  // The scale is optional: the survey can be sent without it.
  await expect(submit).toBeEnabled();
  await submit.click();
  await expect(p.getByText('Thank you! Redirecting...')).toBeVisible();
  await p.clock.runFor(1500);
  await expect(p).toHaveURL(new RegExp(`/experiment/${experiment.id}/static-intro$`));

  const condition = (await p.evaluate(() => sessionStorage.getItem('assignedCondition'))) as 'mmr' | 'control';
  const content = SLEEP_STUDY.conditions[condition];
  // The second study's own static-intro texts, with its topic and number of sections filled in.
  await expect(p.getByRole('heading', { name: 'Bedtime reading' })).toBeVisible();
  await expect(
    p.getByText(`You will now read ${content.sections.length} short pages about ${content.topic}.`),
  ).toBeVisible();
  await p.getByRole('button', { name: 'Begin' }).click();
  await expect(p).toHaveURL(/\/static$/);
  const count = content.sections.length;
  for (const [index, section] of content.sections.entries()) {
    const last = index === count - 1;
    await expect(p.getByText(`Section ${index + 1} of ${count}`)).toBeVisible();
    await expect(p.getByRole('heading', { name: section.title })).toBeVisible();
    if (section.blocks[0]?.markdown) {
      // Markdown, rendered: bold without its asterisks, a heading below the section's title, a table, a link.
      const shown = SLEEP_MARKDOWN[condition];
      await expect(p.locator('strong', { hasText: shown.bold })).toBeVisible();
      await expect(p.getByText('**')).toHaveCount(0);
      await expect(p.getByRole('heading', { level: 2, name: shown.heading })).toBeVisible();
      await expect(p.getByRole('cell', { name: shown.cell, exact: true })).toBeVisible();
      await expect(p.getByRole('link', { name: shown.link })).toHaveAttribute('href', /^https:\/\/example\.org\//);
      await expect(p.locator('main script, main img')).toHaveCount(0);
      await p.screenshot({ path: testInfo.outputPath(`markdown-section-${condition}.png`), fullPage: true });
    }
    await sectionOpened(p);
    const button = p.getByRole('button', { name: last ? 'Complete' : 'Next Section' });
    await expect(button).toBeDisabled();
    // The second study's own timer: a second before it is up the button still waits.
    await passTime(p, request, (section.minSeconds - 1) * 1000);
    await expect(button).toBeDisabled();
    await passTime(p, request, 2000);
    await p.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
    await expect(button).toBeEnabled();
    await button.click();
  }

  await expect(p).toHaveURL(new RegExp(`/experiment/${experiment.id}/chat$`));
  // The study's own completion rule: 2 rounds and 40 points, shown as the targets; Proceed opens after round 2.
  await chatViaApi(p, request, experiment.id, SLEEP_MESSAGES.slice(0, 1));
  await p.reload();
  await expect(p.getByText('Rounds: 1/2')).toBeVisible();
  await expect(p.getByText('Engagement: 40/40')).toBeVisible();
  await expect(p.getByRole('button', { name: 'Proceed' })).toBeDisabled();
  await chatViaApi(p, request, experiment.id, SLEEP_MESSAGES.slice(1));
  await p.reload();
  await expect(p.getByText('Rounds: 2/2')).toBeVisible();
  await p.getByRole('button', { name: 'Proceed' }).click();
  await expect(p.getByRole('heading', { name: 'Final Question' })).toBeVisible();
  await expect(p.getByText(SLEEP_STUDY.post.question)).toBeVisible();
  await choosePoint(p, 6);
  await p.getByRole('button', { name: 'Finish' }).click();
  await expect(p.getByText('Thank you! Your responses have been recorded. Redirecting...')).toBeVisible();
  await p.clock.runFor(1500);
  await expectCode(p, experiment.codes.complete ?? '');
  await expect(p.getByText('Thank you for helping with the bedtime study.')).toBeVisible();
  await expect(p.getByText('Please paste this code into Prolific to finish the bedtime study.')).toBeVisible();
  await context.close();

  // The export reads the version's answer keys: the spec's columns and the study's own pre questions.
  const exported = await admin.text(`/api/experiments/${experiment.id}/export/participants.csv`);
  const [header = '', row = ''] = exported.split('\r\n');
  const columns = header.split(',');
  const cells = row.split(',');
  const cell = (name: string) => cells[columns.indexOf(name)];
  expect(columns.slice(columns.indexOf('entry_choice'), columns.indexOf('sleep_worry') + 1)).toEqual([
    'entry_choice',
    'baseline_intention',
    'school_age_children',
    'bedtime_today',
    'sleep_worry',
  ]);
  expect(
    [
      'entry_choice',
      'baseline_intention',
      'school_age_children',
      'bedtime_today',
      'sleep_worry',
      'post_intent',
      'delta',
    ].map(cell),
  ).toEqual(['questions', '4', '2', '8-9', '', '6', '2']);

  // The version has been run: the editor now refuses changes and offers a clone.
  await page.goto('/admin/studies');
  await expect(page.getByRole('row', { name: new RegExp(label) })).toContainText('In use (locked)');
});

test('a prompt and a question edited through the forms are saved as the new version', async ({ page }) => {
  await loginAsAdmin(page);
  await page.goto('/admin/studies');
  await page.getByRole('button', { name: 'Clone Built-in MMR study', exact: true }).click();
  await expect(page).toHaveURL(/\/admin\/studies\/[0-9a-f-]{36}$/);
  const label = `Forms ${Date.now()}`;
  await page.getByLabel('Label', { exact: true }).fill(label);

  // A question: new wording, a fourth option, then moved to the end; with the keyboard where a person would.
  await page.getByText('Pre-study survey', { exact: true }).click();
  await page.getByLabel('Wording of question 1').fill('Which age group are you in?');
  await page.getByRole('button', { name: 'Add option' }).first().click();
  const options = page.getByRole('group', { name: 'Options of question 1' });
  const added = (await options.getByRole('textbox').count()) / 2;
  await page.getByLabel(`Label of option ${added} of question 1`).fill('Over 100');
  await page.getByLabel(`Value of option ${added} of question 1`).fill('100-plus');
  await page.getByRole('button', { name: 'Move question 1 down' }).focus();
  await page.keyboard.press('Enter');
  await expect(page.getByLabel('Wording of question 2')).toHaveValue('Which age group are you in?');

  // The mmr condition's prompt and model settings.
  await page.getByText('Chat: mmr condition', { exact: true }).click();
  await page.getByLabel('System prompt (mmr condition)').fill('You are a careful assistant. Answer in two sentences.');
  await page.getByLabel('Temperature (mmr condition)').fill('0.3');
  await page.getByLabel('Rounds (mmr condition)').fill('2');
  const json = page.getByLabel('Study definition (JSON)');
  await expect(json).toHaveValue(/"systemPrompt": "You are a careful assistant\. Answer in two sentences\."/);
  await expect(page.getByText('Unsaved changes')).toBeVisible();

  // Leaving with unsaved changes asks first, by a link or the browser's Back button; Stay keeps the draft.
  const leaveDialog = page.getByRole('dialog', { name: 'Discard the unsaved changes to this study version?' });
  await page.getByRole('link', { name: /Back to Study versions/ }).click();
  await leaveDialog.getByRole('button', { name: 'Stay' }).click();
  await expect(page.getByLabel('Label', { exact: true })).toHaveValue(label);
  const editorUrl = page.url();
  await page.goBack();
  await expect(leaveDialog).toBeVisible();
  await expect(page).toHaveURL(editorUrl);
  await leaveDialog.getByRole('button', { name: 'Stay' }).click();
  await expect(leaveDialog).toBeHidden();
  await expect(page.getByLabel('Label', { exact: true })).toHaveValue(label);
  await expect(page.getByLabel('System prompt (mmr condition)')).toHaveValue(
    'You are a careful assistant. Answer in two sentences.',
  );

  await page.getByRole('button', { name: 'Save version' }).click();
  await expect(page.getByText('Saved.')).toBeVisible();
  await expect(page.getByRole('heading', { name: label })).toBeVisible();

  // The saved version, read again: the forms show what was saved, and the diff against the built-in study lists it.
  await page.reload();
  await page.getByText('Pre-study survey', { exact: true }).click();
  await expect(page.getByLabel('Wording of question 2')).toHaveValue('Which age group are you in?');
  await expect(page.getByLabel('Label of option 7 of question 2')).toHaveValue('Over 100');
  await page.getByText('Chat: mmr condition', { exact: true }).click();
  await expect(page.getByLabel('System prompt (mmr condition)')).toHaveValue(
    'You are a careful assistant. Answer in two sentences.',
  );
  await expect(page.getByLabel('Temperature (mmr condition)')).toHaveValue('0.3');
  // Back with a change not saved: Leave leaves it (the saved version stays as it was).
  await page.getByLabel('Temperature (mmr condition)').fill('0.4');
  await page.goBack();
  await leaveDialog.getByRole('button', { name: 'Leave' }).click();
  await expect(page).toHaveURL(/\/admin\/studies$/);
  await page.getByLabel('From').selectOption({ label: 'Built-in MMR study' });
  await page.getByLabel('To').selectOption({ label });
  const diff = page.getByLabel('Differences');
  await expect(diff).toContainText('"wording": "Which age group are you in?"');
  await expect(diff).toContainText('"temperature": 0.3');
});
