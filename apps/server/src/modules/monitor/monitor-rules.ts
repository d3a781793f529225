import {
  MONITOR_FUNNEL_STEPS,
  STRATA,
  type Condition,
  type FullParticipantSummary,
  type JourneyStepName,
  type MonitorFunnel,
  type MonitorFunnelStep,
  type MonitorSpend,
  type MonitorSrm,
  type ParticipantStatusName,
  type Pathway,
} from '@studychat/contracts';
import {
  computeStep,
  pathwayAt,
  type BuiltInFlow,
  type JourneyPosition,
  type JourneyRecords,
} from '../journey/journey-steps.js';
import { PER_CONDITION_IN_BLOCK } from '../participants/permuted-block.js';
import { chiSquareEqual, chiSquarePValue } from './srm.js';

// The monitor's rules as pure functions over each participant's records (docs/decisions/0030): status,
// staleness, the summary where every participant is counted once, the funnel, spend and the ratio check.

/** One participant's facts as the monitor reads them (times in epoch milliseconds). */
export interface MonitorFacts {
  records: JourneyRecords;
  /** Completion recorded (the spec's completed_at). */
  completed: boolean;
  /** Last accepted journey event, else joining. */
  stepSince: number;
  /** Latest of the last API call, the last journey event and joining. */
  lastSeen: number;
  stratum: string | null;
  tokens: number;
  costUsd: number;
  /** Of `tokens`, the input written to and read from the provider's prompt cache (docs/decisions/0076). */
  cacheWriteTokens?: number;
  cacheReadTokens?: number;
  hasThread: boolean;
}

export interface MonitorRow {
  position: JourneyPosition;
  status: ParticipantStatusName;
  stale: boolean;
  pathway: Pathway | null;
}

/** Status and position of one participant at `now`, stale after `staleMs` without activity. */
export function classify(facts: MonitorFacts, now: number, staleMs: number, flow: BuiltInFlow): MonitorRow {
  const position = computeStep(facts.records, flow);
  const pathway = pathwayAt(position, facts.records);
  let status: ParticipantStatusName;
  if (facts.completed) status = 'completed';
  else if (position.step === 'confirm_exit' || position.step === 'ceiling_exit') status = 'screened_out';
  else if (now - facts.lastSeen > staleMs) status = 'stale';
  else status = 'in_progress';
  return { position, status, stale: status === 'stale', pathway };
}

function zeroPerPathway(): Record<Pathway, number> {
  return { complete: 0, confirm: 0, ceiling: 0 };
}

/** Zero per condition of the study version (docs/decisions/0061), in its order. */
function zeroPerCondition(conditions: readonly Condition[]): Record<string, number> {
  return Object.fromEntries(conditions.map((c) => [c, 0]));
}

/** total = screened out + not yet assigned + in progress + stale + completed: each participant once. */
export function summarise(
  items: readonly { facts: MonitorFacts; row: MonitorRow }[],
  conditions: readonly Condition[],
): FullParticipantSummary {
  const summary: FullParticipantSummary = {
    total: items.length,
    conditions: zeroPerCondition(conditions),
    screened_out: { confirm: 0, ceiling: 0 },
    not_yet_assigned: 0,
    in_progress: 0,
    stale: 0,
    completed: zeroPerPathway(),
  };
  for (const { facts, row } of items) {
    const condition = facts.records.condition;
    if (condition !== null) summary.conditions[condition] = (summary.conditions[condition] ?? 0) + 1;
    if (row.status === 'completed') summary.completed[facts.records.completion ?? 'complete'] += 1;
    else if (row.status === 'screened_out')
      summary.screened_out[row.pathway === 'ceiling' ? 'ceiling' : 'confirm'] += 1;
    else if (row.status === 'stale') summary.stale += 1;
    else if (condition === null) summary.not_yet_assigned += 1;
    else summary.in_progress += 1;
  }
  return summary;
}

/** Which funnel point a participant at this step is waiting to pass (where they drop out if stale). */
const WAITING_AT: Partial<Record<JourneyStepName, MonitorFunnelStep>> = {
  consent: 'consented',
  entry: 'entry',
  baseline: 'baseline',
  pre_survey: 'pre_survey',
  assignment: 'assigned',
  sections: 'sections',
  chat: 'chat',
  post_survey: 'post_survey',
  completion: 'completed',
};

function passed(point: MonitorFunnelStep, facts: MonitorFacts, row: MonitorRow): boolean {
  const r = facts.records;
  const index = (step: JourneyStepName) => ['chat', 'post_survey', 'completion'].indexOf(step);
  switch (point) {
    case 'logged_in':
    case 'joined':
      return true;
    case 'consented':
      return r.consented;
    case 'entry':
      return r.entryChoice !== null;
    case 'baseline':
      return r.baseline !== null;
    case 'pre_survey':
      return r.preSurvey;
    case 'assigned':
      return r.condition !== null;
    case 'sections':
      return r.condition !== null && (index(row.position.step) >= 0 || r.completion === 'complete');
    case 'chat':
      return r.chatComplete || r.postSurvey || r.completion === 'complete';
    case 'post_survey':
      return r.postSurvey || r.completion === 'complete';
    case 'completed':
      return facts.completed && r.completion === 'complete';
  }
}

/** Counts per funnel point, the stale participants waiting at each, and the CONSORT numbers. */
export function buildFunnel(
  items: readonly { facts: MonitorFacts; row: MonitorRow }[],
  loggedInNotJoined: number,
  conditions: readonly Condition[],
): MonitorFunnel {
  const reached = Object.fromEntries(MONITOR_FUNNEL_STEPS.map((k) => [k, 0])) as Record<MonitorFunnelStep, number>;
  const dropped = { ...reached };
  const assigned = zeroPerCondition(conditions);
  const completed = zeroPerPathway();
  let confirm = 0;
  let ceiling = 0;
  for (const { facts, row } of items) {
    for (const point of MONITOR_FUNNEL_STEPS) if (passed(point, facts, row)) reached[point] += 1;
    const waiting = WAITING_AT[row.position.step];
    if (row.stale && waiting) dropped[waiting] += 1;
    const condition = facts.records.condition;
    if (condition !== null) assigned[condition] = (assigned[condition] ?? 0) + 1;
    if (facts.completed && facts.records.completion) completed[facts.records.completion] += 1;
    if (row.pathway === 'confirm') confirm += 1;
    if (row.pathway === 'ceiling') ceiling += 1;
  }
  reached.logged_in += loggedInNotJoined;
  dropped.joined = loggedInNotJoined;
  return {
    steps: MONITOR_FUNNEL_STEPS.map((key) => ({ key, reached: reached[key], dropped: dropped[key] })),
    assigned,
    completed,
    screened_out_confirm: confirm,
    screened_out_ceiling: ceiling,
  };
}

const round6 = (n: number) => Math.round(n * 1e6) / 1e6;

/** What preview runs cost (docs/decisions/0057): counted apart, never in the real participants' spend. */
export function buildPreviewSpend(previews: readonly MonitorFacts[]): MonitorSpend['previews'] {
  let chats = 0;
  let tokens = 0;
  let cost = 0;
  for (const f of previews) {
    if (!f.hasThread) continue;
    chats += 1;
    tokens += f.tokens;
    cost += f.costUsd;
  }
  return { runs: previews.length, chats, tokens, cost_usd: round6(cost) };
}

/**
 * Tokens and cost of real participants, per condition, and projected at the target sample size from the
 * mean per chat; `previews` are the test runs' facts, reported apart.
 */
export function buildSpend(
  facts: readonly MonitorFacts[],
  targetSampleSize: number | null,
  previews: readonly MonitorFacts[],
  conditions: readonly Condition[],
): MonitorSpend {
  const byCondition: MonitorSpend['by_condition'] = Object.fromEntries(
    conditions.map((c) => [c, { participants: 0, tokens: 0, cost_usd: 0 }]),
  );
  let tokens = 0;
  let cost = 0;
  let chats = 0;
  let cacheWrite = 0;
  let cacheRead = 0;
  for (const f of facts) {
    if (!f.hasThread) continue;
    chats += 1;
    tokens += f.tokens;
    cost += f.costUsd;
    cacheWrite += f.cacheWriteTokens ?? 0;
    cacheRead += f.cacheReadTokens ?? 0;
    const condition = f.records.condition;
    const line = condition === null ? undefined : byCondition[condition];
    if (line) {
      line.participants += 1;
      line.tokens += f.tokens;
      line.cost_usd = round6(line.cost_usd + f.costUsd);
    }
  }
  const perParticipant = chats > 0 ? cost / chats : null;
  const tokensPer = chats > 0 ? tokens / chats : null;
  return {
    tokens,
    cost_usd: round6(cost),
    cache_write_tokens: cacheWrite,
    cache_read_tokens: cacheRead,
    by_condition: byCondition,
    cost_per_participant_usd: perParticipant === null ? null : round6(perParticipant),
    target_sample_size: targetSampleSize,
    projected_usd:
      perParticipant === null || targetSampleSize === null ? null : round6(perParticipant * targetSampleSize),
    projected_tokens: tokensPer === null || targetSampleSize === null ? null : Math.round(tokensPer * targetSampleSize),
    previews: buildPreviewSpend(previews),
  };
}

/**
 * Arms per baseline stratum against equal allocation (chi-square with one degree of freedom fewer than the
 * study's conditions). Permuted blocks keep every stratum's arms within
 * PER_CONDITION_IN_BLOCK of each other, so a larger difference is a warning whatever the p-value says.
 */
export function buildSrm(facts: readonly MonitorFacts[], conditions: readonly Condition[]): MonitorSrm {
  const strata = STRATA.map((stratum) => {
    const counts = zeroPerCondition(conditions);
    for (const f of facts) {
      if (f.stratum === stratum && f.records.condition !== null) {
        counts[f.records.condition] = (counts[f.records.condition] ?? 0) + 1;
      }
    }
    const values = conditions.map((c) => counts[c] ?? 0);
    const chi = chiSquareEqual(values);
    const imbalance = Math.max(...values) - Math.min(...values);
    return {
      stratum,
      counts,
      chi_square: round6(chi),
      p_value: round6(chiSquarePValue(chi, conditions.length - 1)),
      allowed_imbalance: PER_CONDITION_IN_BLOCK,
      imbalance,
      warning: imbalance > PER_CONDITION_IN_BLOCK,
    };
  });
  const flagged = strata.filter((s) => s.warning);
  const warning =
    flagged.length === 0
      ? null
      : `Sample ratio mismatch: ${flagged
          .map(
            (s) =>
              `stratum ${s.stratum} (${conditions.map((c) => `${c} ${s.counts[c]}`).join(', ')}, p = ${s.p_value.toFixed(3)})`,
          )
          .join('; ')}. The permuted blocks allow a difference of at most ${PER_CONDITION_IN_BLOCK} per stratum.`;
  return { strata, warning };
}
