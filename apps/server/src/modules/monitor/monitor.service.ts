import {
  chatLimitReason,
  conditionIds,
  isStudyCondition,
  PATHWAYS,
  PROLIFIC_SUBMISSION_STATUSES,
  MONITOR_STALE_MINUTES_DEFAULT,
  sectionMinSeconds,
  type ChatLimitReason,
  type Condition,
  type FullParticipantSummary,
  type MonitorParticipant,
  type MonitorReply,
  type MonitorSettings,
  type Pathway,
  type ProlificSubmissionStatus,
  type StudyDefinition,
  toExperimentState,
  type ExperimentState,
} from '@studychat/contracts';
import type { Database } from '../../db/database.js';
import { parseJsonObject, toBool, toIso, toMillis, toNumber } from '../../db/values.js';
import type { AppDeps } from '../../lib/deps.js';
import { notFound } from '../../lib/errors.js';
import { builtInFlow, type JourneyRecords } from '../journey/journey-steps.js';
import { baselineOf, entryChoiceOf } from '../journey/survey-answers.js';
import {
  countLoggedInNotJoined,
  findMonitorSettings,
  latestSeq,
  listEventTimes,
  listMonitorBase,
  listMonitorSectionViews,
  listMonitorSurveys,
  listThreadUsage,
  listUserMessageCounts,
  updateMonitorSettings,
  type MonitorBaseRow,
} from './monitor.repository.js';
import {
  buildFunnel,
  buildSpend,
  buildSrm,
  classify,
  summarise,
  type MonitorFacts,
  type MonitorRow,
} from './monitor-rules.js';

// The live study monitor's read (docs/decisions/0030): seven set-based queries for the whole experiment,
// then each participant's step by the journey's own rules (journey-steps.ts) and the monitor's rules.

const EXPERIMENT_NOT_FOUND = 'Experiment not found';

function toSettings(row: { monitor_stale_minutes: number | null; target_sample_size: number | null }): MonitorSettings {
  return {
    stale_minutes: row.monitor_stale_minutes ?? MONITOR_STALE_MINUTES_DEFAULT,
    stale_minutes_set: row.monitor_stale_minutes !== null,
    target_sample_size: row.target_sample_size,
  };
}

async function requireSettings(database: Database, experimentId: string): Promise<MonitorSettings> {
  return (await requireSettingsAndState(database, experimentId)).settings;
}

/** The settings with the experiment's state (docs/decisions/0077), read in the same statement. */
async function requireSettingsAndState(
  database: Database,
  experimentId: string,
): Promise<{ settings: MonitorSettings; state: ExperimentState }> {
  const row = await findMonitorSettings(database.db, experimentId);
  if (!row) throw notFound(EXPERIMENT_NOT_FOUND);
  return { settings: toSettings(row), state: toExperimentState(row.state) };
}

const isPathway = (value: string | null): value is Pathway =>
  value !== null && (PATHWAYS as readonly string[]).includes(value);

interface Loaded {
  base: MonitorBaseRow;
  /** A "preview as participant" run (docs/decisions/0045): never counted in the monitor's numbers. */
  isTest: boolean;
  facts: MonitorFacts;
  chatRounds: number;
  /** The limit that ended the participant's chat, if one did (docs/decisions/0073). */
  chatClosedBy: ChatLimitReason | null;
}

/** Every participant's facts, loaded set-based. */
async function loadFacts(database: Database, experimentId: string, study: StudyDefinition): Promise<Loaded[]> {
  const { db } = database;
  const [base, surveys, views, events, threads, messages] = await Promise.all([
    listMonitorBase(db, experimentId),
    listMonitorSurveys(db, experimentId),
    listMonitorSectionViews(db, experimentId),
    listEventTimes(db, experimentId),
    listThreadUsage(db, experimentId),
    listUserMessageCounts(db, experimentId),
  ]);
  const answers = new Map<string, Map<string, string>>();
  for (const s of surveys) {
    const byType = answers.get(s.user_id) ?? new Map<string, string>();
    byType.set(s.survey_type, s.responses);
    answers.set(s.user_id, byType);
  }
  const viewsOf = new Map<string, typeof views>();
  for (const v of views) viewsOf.set(v.user_id, [...(viewsOf.get(v.user_id) ?? []), v]);
  const eventsOf = new Map(events.map((e) => [e.user_id, e]));
  const threadOf = new Map(threads.map((t) => [t.user_id, t]));
  const roundsOf = new Map(messages.map((m) => [m.user_id, toNumber(m.n as number | string)]));

  return base.map((row) => {
    const mine = answers.get(row.user_id);
    const entry = mine?.get('entry');
    const baselineText = mine?.get('baseline');
    const choice = entry === undefined ? undefined : parseJsonObject(entry)?.[study.entry.key];
    const condition = isStudyCondition(study, row.assigned_condition) ? row.assigned_condition : null;
    const sections = condition ? (study.conditions[condition]?.sections ?? []) : [];
    const myViews = viewsOf.get(row.user_id) ?? [];
    const event = eventsOf.get(row.user_id);
    const thread = threadOf.get(row.user_id);
    const completion = row.completed_at !== null && isPathway(row.completion_pathway) ? row.completion_pathway : null;
    const records: JourneyRecords = {
      consented: toBool(row.consent_given) || row.consent_timestamp !== null,
      entryChoice: entryChoiceOf(study, choice),
      baseline: baselineText === undefined ? null : baselineOf(study, parseJsonObject(baselineText)),
      preSurvey: mine?.has('pre') ?? false,
      condition,
      sections: sections.map((section, index) => {
        const view = myViews.find((v) => v.section_index === index);
        return {
          minSeconds: view?.min_seconds ?? sectionMinSeconds(section),
          openedAt: view ? toMillis(view.opened_at) : null,
          finishedAt: view?.finished_at ? toMillis(view.finished_at) : null,
        };
      }),
      chatStarted: thread !== undefined,
      // Logged when the chat step was done (complete, or ended by a limit); a post-survey implies it.
      chatComplete: Number(event?.chat_done ?? 0) === 1 || (mine?.has('post') ?? false),
      postSurvey: mine?.has('post') ?? false,
      completion,
    };
    const joined = toMillis(row.created_at);
    const stepSince = event?.last_at ? Math.max(joined, toMillis(event.last_at as Date | string)) : joined;
    const lastSeen = Math.max(stepSince, row.last_seen_at ? toMillis(row.last_seen_at) : 0);
    return {
      base: row,
      isTest: toBool(row.is_test),
      chatRounds: roundsOf.get(row.user_id) ?? 0,
      chatClosedBy: chatLimitReason(thread?.closed_reason),
      facts: {
        records,
        completed: row.completed_at !== null,
        stepSince,
        lastSeen,
        stratum: row.stratum,
        tokens: thread ? toNumber(thread.tokens_used) : 0,
        costUsd: thread ? toNumber(thread.cost_usd) : 0,
        cacheWriteTokens: thread ? toNumber(thread.cache_write_tokens) : 0,
        cacheReadTokens: thread ? toNumber(thread.cache_read_tokens) : 0,
        hasThread: thread !== undefined,
      },
    };
  });
}

function toParticipant(loaded: Loaded, row: MonitorRow, now: number): MonitorParticipant {
  const { base, facts } = loaded;
  return {
    assignment_id: base.assignment_id,
    user_id: base.user_id,
    login: base.email,
    prolific_pid: base.prolific_pid,
    prolific_status: prolificStatusOf(base.prolific_status),
    condition: facts.records.condition,
    status: row.status,
    step: row.position.step,
    section: row.position.currentSection,
    step_since: new Date(facts.stepSince).toISOString(),
    seconds_on_step: secondsOnStep(
      facts.stepSince,
      base.completed_at === null ? now : toMillis(base.completed_at),
      now,
    ),
    last_seen: new Date(facts.lastSeen).toISOString(),
    stale: row.stale,
    pathway: row.pathway,
    chat_rounds: loaded.chatRounds,
    chat_closed_by: loaded.chatClosedBy,
    tokens: facts.tokens,
    cost_usd: Math.round(facts.costUsd * 1e6) / 1e6,
    is_test: loaded.isTest,
  };
}

/** Time on the step up to now, or up to completion: a finished participant's clock stops (issue 34). */
function secondsOnStep(stepSince: number, stoppedAt: number, now: number): number {
  return Math.max(0, Math.floor((Math.min(stoppedAt, now) - stepSince) / 1000));
}

interface Classified {
  loaded: Loaded;
  facts: MonitorFacts;
  row: MonitorRow;
}

/** Everyone classified, and the conditions of the experiment's study version (docs/decisions/0061). */
interface ClassifiedAll {
  items: Classified[];
  conditions: Condition[];
}

/** Real participants only: test runs (previews) are left out of every number and list of the monitor. */
async function classifyReal(deps: AppDeps, experimentId: string, settings: MonitorSettings): Promise<ClassifiedAll> {
  const all = await classifyAll(deps, experimentId, settings);
  return { ...all, items: all.items.filter((i) => !i.loaded.isTest) };
}

async function classifyAll(deps: AppDeps, experimentId: string, settings: MonitorSettings): Promise<ClassifiedAll> {
  const study = await deps.studies(experimentId);
  const now = deps.clock().getTime();
  const staleMs = settings.stale_minutes * 60_000;
  const flow = builtInFlow(study);
  const items = (await loadFacts(deps.database, experimentId, study)).map((loaded) => ({
    loaded,
    facts: loaded.facts,
    row: classify(loaded.facts, now, staleMs, flow),
  }));
  return { items, conditions: conditionIds(study) };
}

/**
 * The monitor snapshot: summary, funnel, spend, ratio check and every participant, at the server's time. Test
 * runs are in the participant list only when `includeTests` (marked is_test); every number counts real
 * participants only (docs/decisions/0063).
 */
export async function getMonitor(
  deps: AppDeps,
  experimentId: string,
  { includeTests = false }: { includeTests?: boolean } = {},
): Promise<MonitorReply> {
  const { db } = deps.database;
  const { settings, state } = await requireSettingsAndState(deps.database, experimentId);
  // The position first: anything logged while the rest is read is announced again by the stream.
  const seq = await latestSeq(db, experimentId);
  const [{ items: all, conditions }, loggedInNotJoined] = await Promise.all([
    classifyAll(deps, experimentId, settings),
    countLoggedInNotJoined(db, experimentId),
  ]);
  const items = all.filter((i) => !i.loaded.isTest);
  const previews = all.filter((i) => i.loaded.isTest).map((i) => i.facts);
  const now = deps.clock();
  const facts = items.map((i) => i.facts);
  return {
    generated_at: now.toISOString(),
    seq,
    state,
    settings,
    summary: summarise(items, conditions),
    funnel: buildFunnel(items, loggedInNotJoined, conditions),
    spend: buildSpend(facts, settings.target_sample_size, previews, conditions),
    srm: buildSrm(facts, conditions),
    participants: (includeTests ? all : items).map((i) => toParticipant(i.loaded, i.row, now.getTime())),
  };
}

/** The summary alone (the participant-summary route): every participant counted once. */
export async function getFullSummary(deps: AppDeps, experimentId: string): Promise<FullParticipantSummary> {
  const settings = await requireSettings(deps.database, experimentId);
  const { items, conditions } = await classifyReal(deps, experimentId, settings);
  return summarise(items, conditions);
}

/** Status per user id (the participants table and participants.csv), test runs included. */
export async function statusByUser(deps: AppDeps, experimentId: string): Promise<Map<string, MonitorRow['status']>> {
  const settings = await requireSettings(deps.database, experimentId);
  const { items } = await classifyAll(deps, experimentId, settings);
  return new Map(items.map((i) => [i.loaded.base.user_id, i.row.status]));
}

export async function updateSettings(
  deps: AppDeps,
  experimentId: string,
  body: { stale_minutes?: number | null | undefined; target_sample_size?: number | null | undefined },
): Promise<MonitorSettings> {
  const changes: { monitor_stale_minutes?: number | null; target_sample_size?: number | null; updated_at: string } = {
    updated_at: toIso(deps.clock()),
  };
  if (body.stale_minutes !== undefined) changes.monitor_stale_minutes = body.stale_minutes;
  if (body.target_sample_size !== undefined) changes.target_sample_size = body.target_sample_size;
  if (!(await updateMonitorSettings(deps.database.db, experimentId, changes))) throw notFound(EXPERIMENT_NOT_FOUND);
  return requireSettings(deps.database, experimentId);
}

/** A stored submission status as the contract's (an unknown word, from an older server, is `other`). */
function prolificStatusOf(status: string | null): ProlificSubmissionStatus | null {
  if (status === null) return null;
  return (PROLIFIC_SUBMISSION_STATUSES as readonly string[]).includes(status)
    ? (status as ProlificSubmissionStatus)
    : 'other';
}
