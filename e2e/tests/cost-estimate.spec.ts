import { expect, test } from '@playwright/test';
import { inBuiltInShape, type StudyVersion, type StudyVersionSummary } from '@studychat/contracts/web';
import { completeParticipantViaApi, loginAsAdmin } from '../support/admin';
import { AdminApi } from '../support/api';
import { analyzeSettled } from '../support/axe';

// Issue 32 on the admin's experiment page: the expected chat cost before launch at a sample size the researcher
// types (per arm, without and with caching, its assumptions in words), and the provider's health in the monitor
// once a participant has chatted.

test('the experiment page estimates the chat cost at a typed sample size and shows the provider health', async ({
  page,
  request,
}) => {
  test.setTimeout(120_000);
  const admin = await AdminApi.login(request);
  // The built-in study with the mmr condition on a Claude model (priced from the table; the scripted model answers).
  const versions = await admin.call<StudyVersionSummary[]>('GET', '/api/admin/study-versions');
  const builtIn = versions.find((v) => v.is_default);
  if (!builtIn) throw new Error('no built-in study version');
  const { definition } = await admin.call<StudyVersion>('GET', `/api/admin/study-versions/${builtIn.id}`);
  const study = structuredClone(inBuiltInShape(definition));
  const mmr = study.chat.conditions.mmr;
  if (!mmr) throw new Error('the built-in study has an mmr condition');
  mmr.settings = { model: 'claude-sonnet-4-5', fallbackModel: 'claude-haiku-4-5' };
  const version = await admin.call<StudyVersion>('POST', '/api/admin/study-versions', {
    label: `Costed ${Date.now()}`,
    definition: study,
  });
  const experiment = await admin.createExperiment(`Cost estimate ${Date.now()}`);
  await admin.call('PUT', `/api/experiments/${experiment.id}/study-version`, { study_version_id: version.id });
  const [credential] = await admin.credentials(experiment.id, 1);
  if (!credential) throw new Error('no credentials generated');
  await completeParticipantViaApi(request, experiment.id, credential);

  await loginAsAdmin(page);
  await page.goto(`/admin/experiments/${experiment.id}`);
  const card = page.getByRole('region', { name: 'Expected chat cost' });
  await expect(card.getByTestId('cost-total')).toContainText('100 participants:');
  const field = card.getByLabel('Target sample size');
  await field.fill('400');
  await field.press('Enter');
  await expect(card.getByTestId('cost-total')).toContainText('400 participants:');
  await expect(card.getByTestId('cost-total')).toContainText(/\$[\d.,]+ without caching, \$[\d.,]+ with caching/);
  const mmrRow = card.getByTestId('cost-arm-mmr');
  await expect(mmrRow).toContainText('claude-sonnet-4-5');
  await expect(mmrRow).toContainText('200');
  await expect(card.getByTestId('cost-arm-control')).toContainText('$0.0000');
  await expect(card.getByText(/one per 4 characters/)).toBeVisible();

  // A number that is not a sample size is refused at the field, and the last estimate stays.
  await field.fill('0');
  await card.getByRole('button', { name: 'Estimate' }).click();
  await expect(field).toHaveAttribute('aria-invalid', 'true');
  await expect(card.getByTestId('cost-total')).toContainText('400 participants:');

  // The participant's chat (opening and three rounds) in the provider's health, over the last day.
  const health = page.getByRole('table', { name: 'Model provider health' });
  await expect(health.getByTestId('provider-health-1440')).toContainText('Last 24 h400- / -0');

  await page.screenshot({ path: test.info().outputPath('cost-estimate.png'), fullPage: true });
  const { violations } = await analyzeSettled(page);
  expect(violations.map((v) => `${v.id} ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);
});
