import { expect, test } from '@playwright/test';
import {
  inBuiltInShape,
  NOT_ADMITTING_TEXT,
  type ChatLimitsReply,
  type StudyVersion,
  type StudyVersionSummary,
} from '@studychat/contracts/web';
import { completeParticipantViaApi, loginAsAdmin } from '../support/admin';
import { AdminApi } from '../support/api';
import { analyzeSettled } from '../support/axe';
import { landingUrl } from '../support/participant';

// Issue 28 (docs/decisions/0073): once an experiment's chat budget is spent to its admit percent, the study's
// landing page turns newcomers away without offering the login, and the admin's budget card says so.
test('a study whose chat budget is nearly spent turns newcomers away on its landing page', async ({
  page,
  request,
}) => {
  test.setTimeout(120_000);
  const admin = await AdminApi.login(request);
  // The built-in study, its conditions on a model priced by the study itself: the scripted model answers, and its
  // replies cost what that price says, so the chat spends real (test) money.
  const versions = await admin.call<StudyVersionSummary[]>('GET', '/api/admin/study-versions');
  const builtIn = versions.find((v) => v.is_default);
  if (!builtIn) throw new Error('no built-in study version');
  const { definition } = await admin.call<StudyVersion>('GET', `/api/admin/study-versions/${builtIn.id}`);
  const priced = structuredClone(inBuiltInShape(definition));
  for (const chat of Object.values(priced.chat.conditions)) {
    chat.settings = { model: 'e2e-lab-model', price: { inputPerMTok: 1000, outputPerMTok: 1000 } };
  }
  const version = await admin.call<StudyVersion>('POST', '/api/admin/study-versions', {
    label: `Priced ${Date.now()}`,
    definition: priced,
  });
  const experiment = await admin.createExperiment(`Budget admission ${Date.now()}`);
  await admin.call('PUT', `/api/experiments/${experiment.id}/study-version`, { study_version_id: version.id });
  const [first, second] = await admin.credentials(experiment.id, 2);
  if (!first || !second) throw new Error('no credentials generated');

  // One participant takes part; then the budget is set so that 98% of it is spent (the default admits to 95%).
  await completeParticipantViaApi(request, experiment.id, first);
  const limitsUrl = `/api/experiments/${experiment.id}/chat-limits`;
  const { budget } = await admin.call<ChatLimitsReply>('GET', limitsUrl);
  expect(budget.spentUsd).toBeGreaterThan(0);
  const closed = await admin.call<ChatLimitsReply>('PUT', limitsUrl, {
    overrides: { budgetUsd: Math.round((budget.spentUsd / 0.98) * 1e6) / 1e6 },
  });
  expect(closed.budget).toMatchObject({ state: 'warning', admitting: false });

  // The next participant lands from Prolific: told the study is closed, offered no login.
  await page.goto(landingUrl({ experimentId: experiment.id, prolificPid: 'PIDLATE1' }));
  await expect(page.getByText('This study is closed to new participants.')).toBeVisible();
  await expect(page.getByText(NOT_ADMITTING_TEXT)).toBeVisible();
  await expect(page.getByLabel('Study email')).toHaveCount(0);
  expect((await analyzeSettled(page)).violations.map((v) => v.id)).toEqual([]);
  await page.screenshot({ path: '/tmp/landing-not-admitting.png', fullPage: true });
  // Their study login was not spent: it never logged in.
  const logins = await admin.call<{ logins: { email: string; status: string }[] }>(
    'GET',
    `/api/experiments/${experiment.id}/logins`,
  );
  expect(logins.logins.find((l) => l.email === second.email)?.status).toBe('unused');

  // The researcher sees why on the experiment page.
  await loginAsAdmin(page);
  await page.goto(`/admin/experiments/${experiment.id}`);
  await expect(page.getByText(/No new participants:/)).toBeVisible();
});
