import { readFile } from 'node:fs/promises';
import { expect, test, type Page } from '@playwright/test';
import { completeParticipantViaApi, loginAsAdmin } from '../support/admin';
import { analyzeSettled } from '../support/axe';

/** Screenshots at laptop and tablet widths, with an axe check at each. */
async function shoot(page: Page, name: string): Promise<void> {
  for (const [label, size] of [
    ['laptop', { width: 1280, height: 800 }],
    ['tablet', { width: 820, height: 1180 }],
  ] as const) {
    await page.setViewportSize(size);
    await page.screenshot({ path: `/tmp/admin-${name}-${label}.png`, fullPage: true });
    const { violations } = await analyzeSettled(page);
    expect(
      violations.map((v) => `${name} ${label}: ${v.id} ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`),
    ).toEqual([]);
  }
  await page.setViewportSize({ width: 1280, height: 800 });
}

test('an admin creates and edits an experiment, hands out logins, and follows a participant to the data', async ({
  page,
  context,
  request,
  baseURL,
}) => {
  test.setTimeout(120_000);
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: baseURL });
  await page.setViewportSize({ width: 1280, height: 800 });
  const pageErrors: string[] = [];
  page.on('pageerror', (error) => pageErrors.push(error.message));
  await loginAsAdmin(page);

  // Create through the modal.
  const name = `Admin E2E ${Date.now()}`;
  await page.goto('/admin');
  await page.getByRole('link', { name: /Experiments/ }).click();
  await expect(page).toHaveURL(/\/admin\/experiments$/);
  await page.getByRole('button', { name: 'Create New Experiment' }).click();
  const createDialog = page.getByRole('dialog', { name: 'Create New Experiment' });
  await createDialog.getByRole('button', { name: 'Create' }).click();
  await expect(createDialog.getByText('Name is required')).toBeVisible();
  await createDialog.getByLabel('Name *').fill(name);
  await createDialog.getByLabel('Description (optional)').fill('Made by the admin end-to-end test');
  await createDialog.getByRole('button', { name: 'Create' }).click();
  await expect(createDialog).toBeHidden();
  const row = page.getByRole('row', { name: new RegExp(name) });
  await expect(row).toContainText('Made by the admin end-to-end test');
  await shoot(page, 'experiments');
  await row.getByRole('link', { name: /View Details/ }).click();
  await expect(page.getByRole('heading', { name: 'Experiment Details' })).toBeVisible();
  const experimentId = /\/admin\/experiments\/([0-9a-f-]{36})$/.exec(page.url())?.[1] ?? '';
  expect(experimentId).not.toBe('');
  await expect(page.getByText('No participants found.')).toBeVisible();

  // Edit the name and two codes; the third stays unset.
  await page.getByRole('button', { name: 'Edit' }).click();
  const editDialog = page.getByRole('dialog', { name: 'Edit Experiment' });
  await editDialog.getByLabel('Name *').fill(`${name} (edited)`);
  await editDialog.getByLabel('Completion code: complete').fill('  DONE-123 ');
  await editDialog.getByLabel('Completion code: exitnoqualms').fill('NQ-456');
  await shoot(page, 'edit-modal');
  await editDialog.getByRole('button', { name: 'Save Changes' }).click();
  await expect(editDialog).toBeHidden();
  await expect(page.getByRole('heading', { name: `${name} (edited)` })).toBeVisible();
  await expect(page.getByText('DONE-123', { exact: true })).toBeVisible();
  await expect(page.getByText('NQ-456', { exact: true })).toBeVisible();

  // Generate two logins and copy them as CSV.
  await page.getByLabel('Number of credentials').fill('0');
  await page.getByRole('button', { name: 'Generate' }).click();
  await expect(page.getByText('Please enter a valid number of credentials to generate (must be > 0).')).toBeVisible();
  await page.getByLabel('Number of credentials').fill('2');
  await page.getByRole('button', { name: 'Generate' }).click();
  const credentialsTable = page.getByRole('region', { name: 'Generated credentials' });
  await expect(credentialsTable.getByRole('row')).toHaveCount(3);
  await expect(page.getByText(/passwords are shown only once/)).toBeVisible();
  await page.getByRole('button', { name: 'Copy as CSV' }).click();
  await expect(page.getByText('Credentials copied to clipboard as CSV!')).toBeVisible();
  const csv = await page.evaluate(() => navigator.clipboard.readText());
  const lines = csv.trim().split('\n');
  expect(lines[0]).toBe('Username,Password');
  expect(lines).toHaveLength(3);
  const [email, password] = (lines[1] ?? '').split(',');
  if (!email || !password) throw new Error(`unexpected CSV line: ${lines[1]}`);
  await expect(credentialsTable).toContainText(email);
  await expect(credentialsTable).toContainText(password);
  await shoot(page, 'experiment-credentials');

  // A participant goes through the study with the copied login.
  const participant = await completeParticipantViaApi(request, experimentId, { email, password }, 4, 6);

  await page.reload();
  await expect(page.getByRole('heading', { name: 'Participants (1)' })).toBeVisible();
  const participantRow = page.getByRole('region', { name: 'Participants' }).getByRole('row').nth(1);
  await expect(participantRow).toContainText(`${participant.userId.slice(0, 8)}...`);
  await expect(participantRow).toContainText(participant.condition);
  await expect(participantRow.getByRole('cell').nth(2)).toHaveText('Completed');
  await expect(participantRow.getByRole('cell').nth(4)).toHaveText('3');
  await expect(participantRow.getByRole('cell').nth(6)).toHaveText('4');
  await expect(participantRow.getByRole('cell').nth(7)).toHaveText('6');
  await expect(participantRow.getByRole('cell').nth(8)).toHaveText('+2');
  const chartTable = page.getByRole('table', { name: 'Mean intention before and after, per condition' });
  await expect(chartTable.getByRole('row', { name: new RegExp(participant.condition) })).toContainText('4.00');
  await expect(page.locator('svg').getByText('n = 1')).toBeVisible();
  await shoot(page, 'experiment-detail');

  // The participants export carries the participant.
  const downloadPromise = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Download participants.csv' }).click();
  const download = await downloadPromise;
  expect(download.suggestedFilename()).toMatch(/participants.*\.csv$/);
  const file = await download.path();
  const exported = await readFile(file, 'utf8');
  expect(exported).toContain(participant.userId);
  expect(exported).toContain(participant.prolificPid);
  await expect(page.getByText(/^Saved .*participants.*\.csv$/)).toBeVisible();

  // The data package: one ZIP with every file.
  const packagePromise = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Download data-package.zip' }).click();
  const packageFile = await packagePromise;
  expect(packageFile.suggestedFilename()).toMatch(/data-package-\d{8}T\d{6}Z\.zip$/);
  const zip = await readFile(await packageFile.path());
  // A ZIP starts with "PK" and names its files in the clear.
  expect(zip.subarray(0, 2).toString('latin1')).toBe('PK');
  expect(zip.includes(Buffer.from('datapackage.json'))).toBe(true);

  // Their user page: profile, thread with thinking, assignment, survey responses.
  await participantRow.getByRole('link').click();
  await expect(page).toHaveURL(new RegExp(`/admin/user/${participant.userId}$`));
  await expect(page.getByRole('row', { name: /Prolific ID/ })).toContainText(participant.prolificPid);
  await expect(page.getByRole('link', { name: /Back to Users/ })).toHaveAttribute('href', '/admin');
  await expect(page.getByText('Select a thread to view messages')).toBeVisible();
  await page.getByRole('list', { name: 'Threads' }).getByRole('button').first().click();
  const messages = page.getByRole('list', { name: 'Messages' });
  await expect(messages.getByText(participant.messages[0] ?? '')).toBeVisible();
  await expect(messages.getByRole('listitem')).toHaveCount(7);
  const firstToggle = messages.getByRole('button', { name: '[Show Thinking]' }).first();
  await firstToggle.click();
  await expect(messages.getByText(/^\[THINKING\]: |^\[REDACTED THINKING\]$/).first()).toBeVisible();
  await expect(messages.getByRole('button', { name: '[Hide Thinking]' })).toHaveCount(1);
  await expect(messages.getByText(/Model: /).first()).toBeVisible();
  const assignmentRow = page.getByRole('region', { name: 'Participant assignments' }).getByRole('row').nth(1);
  await expect(assignmentRow).toContainText(participant.condition);
  await expect(assignmentRow).toContainText(/Yes \(/);
  await expect(assignmentRow.getByRole('cell').last()).toHaveText('complete');
  await expect(page.getByText('View Response Data')).toHaveCount(4);
  await page.getByText('View Response Data').nth(3).click();
  await expect(page.getByText(/"post_intent": 6/)).toBeVisible();
  await shoot(page, 'user-detail');

  // The users list, sorted by the server.
  await page.goto('/admin/users');
  await expect(page.getByRole('link', { name: participant.userId.slice(0, 8) })).toBeVisible();
  const header = page.getByRole('columnheader', { name: /Email/ });
  await header.getByRole('button').click();
  await expect(header).toHaveAttribute('aria-sort', 'ascending');
  await header.getByRole('button').click();
  await expect(header).toHaveAttribute('aria-sort', 'descending');
  const emails = await page
    .getByRole('region', { name: 'Users' })
    .locator('tbody tr td:nth-child(2)')
    .allTextContents();
  expect(emails).toEqual([...emails].sort((a, b) => b.localeCompare(a)));
  await shoot(page, 'users');
  expect(pageErrors).toEqual([]);
});
