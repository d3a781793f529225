import type { FastifyInstance } from 'fastify';
import {
  conditionIds,
  conditionLabel,
  ruleKeys,
  flowOverview,
  samplePersonas,
  sectionMinSeconds,
  seededRandom,
  studyPathways,
  type FlowDefinition,
  type PilotParticipantResult,
  type PilotRun,
  type PilotRunListReply,
  type StartPilotBody,
  type StudyDefinition,
} from '@studychat/contracts';
import type { AppConfig } from '../../config.js';
import type { AppDeps } from '../../lib/deps.js';
import { AppError, notFound } from '../../lib/errors.js';
import { createStudyScriptedModel } from '../../llm/create-chat-model.js';
import { mergePrices, priceFor } from '../../llm/pricing.js';
import type { AuthContext } from '../auth/auth.service.js';
import { chatUsageByUser } from '../chat/chat.service.js';
import { getCostEstimate } from '../chat/cost-estimate.service.js';
import { EXPERIMENT_NOT_FOUND, findExperiment } from '../experiments/experiments.service.js';
import { createPreview } from '../preview/preview.service.js';
import { findPilotRun, insertPilotRun, listPilotRuns, type PilotRunRow } from './pilot.repository.js';
import { buildReport, type ArmInput, type PathwayInput } from './pilot-report.js';
import { walkBuiltIn, walkFlow, type PilotClock, type StepTime } from './pilot-walker.js';

// A pilot run (issue 35, docs/decisions/0085). The simulated participants are test runs made as previews are
// (is_test assignments with a condition given in turn, so real participants' allocation is untouched), signed in
// through the preview link's real route, and walked through a second, short-lived app built in process on the
// same database, whose clock is the pilot's: it moves past each timed step, so every server rule applies and no
// real time passes. The report is stored with the run.

/** Builds the pilot's own app on these dependencies (app.ts passes buildApp with its configuration). */
export type PilotAppBuilder = (deps: AppDeps) => Promise<FastifyInstance>;

export interface PilotContext {
  deps: AppDeps;
  config: AppConfig;
  auth: AuthContext;
  buildPilotApp: PilotAppBuilder;
  /** Experiments with a pilot running in this process: one at a time each. */
  running: Set<string>;
}

export const PILOT_NOT_FOUND = 'Pilot run not found';
export const PILOT_RUNNING = 'A pilot of this experiment is already running: wait for its report.';

/** The pilot's clock: the app's clock plus an offset the walkers move, reset for each participant. */
function pilotClock(base: () => Date): PilotClock & { now: () => Date; reset: () => void } {
  let offsetMs = 0;
  return {
    now: () => new Date(base().getTime() + offsetMs),
    advance: (ms) => {
      offsetMs += Math.max(0, ms);
    },
    elapsedSeconds: () => Math.round(offsetMs / 1000),
    reset: () => {
      offsetMs = 0;
    },
  };
}

/** The conditions pilot participants are given in turn: those the study can assign (a flow's weighted ones). */
function pilotConditions(study: StudyDefinition | null, flow: FlowDefinition | null): string[] {
  if (!flow) return study ? conditionIds(study) : [];
  const randomise = flow.steps.find((s) => s.type === 'randomise');
  const all = flow.conditions.map((c) => c.id);
  return randomise ? all.filter((c) => (randomise.weights[c] ?? 0) > 0) : all;
}

function shares(conditions: string[], flow: FlowDefinition | null): Map<string, number> {
  const randomise = flow?.steps.find((s) => s.type === 'randomise');
  const weight = (c: string) => (randomise ? (randomise.weights[c] ?? 0) : 1);
  const total = conditions.reduce((s, c) => s + weight(c), 0);
  return new Map(conditions.map((c) => [c, total === 0 ? 0 : weight(c) / total]));
}

function pathwaysOf(study: StudyDefinition | null, flow: FlowDefinition | null): PathwayInput[] {
  if (flow) {
    return flow.pathways.map((p) => {
      const check = flow.steps.find(
        (s) =>
          s.type === 'questions' &&
          s.questions.some((q) => q.check && 'end' in q.check.onFail && q.check.onFail.end === p.key),
      );
      // A screen's exit is taken at the questions step that asks what its rule reads.
      const screen = flow.steps.find((s) => s.type === 'screen' && s.pathway === p.key);
      const keys = screen?.type === 'screen' ? ruleKeys(screen.when) : [];
      const asked = flow.steps.find((s) => s.type === 'questions' && s.questions.some((q) => keys.includes(q.key)));
      return { key: p.key, label: p.label, exitStep: check?.id ?? asked?.id ?? null };
    });
  }
  const exits: Record<string, string | null> = { complete: null, confirm: 'entry', ceiling: 'baseline' };
  return studyPathways(study ?? undefined).map((p) => ({
    key: p.pathway,
    label: p.label,
    exitStep: exits[p.pathway] ?? null,
  }));
}

function minimumSeconds(study: StudyDefinition | null, flow: FlowDefinition | null, condition: string): number {
  if (flow) return flowOverview(flow).walks.find((w) => w.condition === condition)?.minimumSeconds ?? 0;
  return (study?.conditions[condition]?.sections ?? []).reduce((n, s) => n + sectionMinSeconds(s), 0);
}

export async function startPilot(
  ctx: PilotContext,
  admin: { userId: string },
  experimentId: string,
  body: StartPilotBody,
): Promise<PilotRun> {
  const { deps } = ctx;
  if (!(await findExperiment(deps, experimentId))) throw notFound(EXPERIMENT_NOT_FOUND);
  if (ctx.running.has(experimentId)) throw new AppError(409, 'CONFLICT', PILOT_RUNNING);
  ctx.running.add(experimentId);
  try {
    return await runPilot(ctx, admin, experimentId, body);
  } finally {
    ctx.running.delete(experimentId);
  }
}

async function runPilot(
  ctx: PilotContext,
  admin: { userId: string },
  experimentId: string,
  body: StartPilotBody,
): Promise<PilotRun> {
  const { deps, config } = ctx;
  const started = Date.now();
  const createdAt = deps.clock().toISOString();
  const flow = await deps.flows(experimentId);
  // A flow has no definition in the built-in shape (the journey's routes refuse it): one or the other.
  const study = flow ? null : await deps.studies(experimentId);
  const conditions = pilotConditions(study, flow);
  const seed = body.seed ?? Math.floor(deps.random() * 2_147_483_647);
  const personas = body.personas ?? samplePersonas(body.participants, seed);
  const runId = deps.newId();

  const clock = pilotClock(deps.clock);
  const { clockControl: _control, ...rest } = deps;
  const pilotDeps: AppDeps = {
    ...rest,
    clock: clock.now,
    // The offline model streams at once for the pilot (a demo deployment's word delay would only cost time).
    llm: deps.llm.provider === 'scripted' ? createStudyScriptedModel(0) : deps.llm,
    // A wait for the provider's turn stays a real wait (deps.sleep): the provider is really busy.
    // The app's database reports go on to the app's own log, not the pilot's short-lived one.
    database: { ...deps.database, reportTo: () => undefined },
  };
  const app = await ctx.buildPilotApp(pilotDeps);
  const results: (PilotParticipantResult & { steps: StepTime[] })[] = [];
  try {
    for (const [index, persona] of personas.entries()) {
      clock.reset();
      const condition = conditions[index % conditions.length] ?? '';
      const preview = await createPreview(ctx.auth, admin.userId, experimentId, condition, { runId });
      const token = preview.path.slice(preview.path.indexOf('#') + 1);
      const redeemed = await app.inject({ method: 'POST', url: '/api/preview/redeem', payload: { token } });
      if (redeemed.statusCode !== 200) throw new Error(`the pilot could not sign in: ${redeemed.body}`);
      const walker = {
        app,
        clock,
        experimentId,
        userId: preview.user_id,
        headers: { authorization: `Bearer ${redeemed.json<{ token: string }>().token}` },
        persona,
        random: seededRandom(seed + index * 7919),
      };
      const walk = study ? await walkBuiltIn(walker, study) : await walkFlow(walker);
      results.push({
        index,
        persona,
        userId: preview.user_id,
        prolificPid: preview.prolific_pid,
        condition: walk.condition ?? condition,
        pathway: walk.pathway,
        lastStep: walk.lastStep,
        stopped: walk.stopped,
        simulatedSeconds: clock.elapsedSeconds(),
        chat: walk.chat,
        inputTokens: 0,
        outputTokens: 0,
        costUsd: 0,
        steps: walk.steps,
      });
    }
  } finally {
    await app.close();
  }

  const usage = await chatUsageByUser(
    deps.database.db,
    experimentId,
    results.map((r) => r.userId),
  );
  for (const r of results) Object.assign(r, usage.get(r.userId) ?? {});
  const estimate = await getCostEstimate(deps, config, experimentId, body.target_sample).catch(() => null);
  const prices = mergePrices(config.llm.prices);
  const share = shares(conditions, flow);
  const arms: ArmInput[] = conditions.map((condition) => {
    const name = estimate?.arms.find((a) => a.condition === condition)?.models[0];
    const price = name && name !== deps.llm.model ? priceFor(name, prices) : null;
    return {
      condition,
      label: flow
        ? (flow.conditions.find((c) => c.id === condition)?.label ?? condition)
        : study
          ? conditionLabel(study, condition)
          : condition,
      share: share.get(condition) ?? 0,
      minimumSeconds: minimumSeconds(study, flow, condition),
      model: name && price ? { name, inputPerMTok: price.inputPerMTok, outputPerMTok: price.outputPerMTok } : null,
    };
  });
  const report = buildReport({
    kind: flow ? 'flow' : 'built-in',
    studyTitle: flow?.title ?? study?.title ?? '',
    targetSample: body.target_sample,
    seed,
    durationMs: Date.now() - started,
    results,
    pathways: pathwaysOf(study, flow),
    arms,
    estimate,
    warnings: flow ? flowOverview(flow).warnings : [],
  });
  const row: PilotRunRow = {
    id: runId,
    experiment_id: experimentId,
    created_by: admin.userId,
    participants: personas.length,
    target_sample: body.target_sample,
    seed,
    report: JSON.stringify(report),
    created_at: createdAt,
    finished_at: deps.clock().toISOString(),
  };
  await insertPilotRun(deps.database.db, row);
  return toRun(row);
}

function toRun(row: PilotRunRow): PilotRun {
  return {
    id: row.id,
    experimentId: row.experiment_id,
    createdBy: row.created_by,
    createdAt: row.created_at,
    finishedAt: row.finished_at,
    report: JSON.parse(row.report) as PilotRun['report'],
  };
}

export async function getPilotRun(deps: AppDeps, experimentId: string, id: string): Promise<PilotRun> {
  const row = await findPilotRun(deps.database.db, experimentId, id);
  if (!row) throw notFound(PILOT_NOT_FOUND);
  return toRun(row);
}

export async function listPilots(deps: AppDeps, experimentId: string): Promise<PilotRunListReply> {
  if (!(await findExperiment(deps, experimentId))) throw notFound(EXPERIMENT_NOT_FOUND);
  const rows = await listPilotRuns(deps.database.db, experimentId);
  return {
    runs: rows.map((row) => {
      const { report } = toRun(row);
      return {
        id: row.id,
        createdAt: row.created_at,
        participants: row.participants,
        targetSample: row.target_sample,
        completed: report.completed,
        warnings: report.warnings.length,
      };
    }),
  };
}
