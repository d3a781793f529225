import {
  PILOT_CAVEAT,
  type CostEstimateReply,
  type PilotArmResult,
  type PilotParticipantResult,
  type PilotPathwayResult,
  type PilotReport,
  type PilotStepResult,
} from '@studychat/contracts';
import type { StepTime } from './pilot-walker.js';

// The pilot's report from its walks (issue 35, docs/decisions/0085), pure: pathways reached or why not, each arm's
// chat, rule and rounds, time per step beside the enforced minimum, tokens and cost projected at the target
// sample size, warnings, and the caveat.

export interface ArmInput {
  condition: string;
  label: string;
  share: number;
  /** The least seconds a participant of the arm needs (the study's enforced minima summed). */
  minimumSeconds: number;
  /** The model the arm names and its price per million tokens (null: the deployment's model or no known price). */
  model: { name: string; inputPerMTok: number; outputPerMTok: number } | null;
}

export interface PathwayInput {
  key: string;
  label: string;
  /** The step where the pathway's exit is taken, for the reason when no one took it (null: the study's end). */
  exitStep: string | null;
}

export interface ReportInput {
  kind: PilotReport['kind'];
  studyTitle: string;
  targetSample: number;
  seed: number;
  durationMs: number;
  results: (PilotParticipantResult & { steps: StepTime[] })[];
  pathways: PathwayInput[];
  arms: ArmInput[];
  estimate: CostEstimateReply | null;
  warnings: { path: string; message: string }[];
}

export function median(values: readonly number[]): number {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? (sorted[mid] ?? 0) : ((sorted[mid - 1] ?? 0) + (sorted[mid] ?? 0)) / 2;
}

const mean = (values: readonly number[]) =>
  values.length === 0 ? 0 : values.reduce((s, v) => s + v, 0) / values.length;

const round6 = (n: number) => Math.round(n * 1e6) / 1e6;

function whyNotReached(pathway: PathwayInput, input: ReportInput): string {
  const { results } = input;
  if (results.length === 0) return 'No persona took part.';
  const stops = new Map<string, number>();
  for (const r of results) {
    if (!r.stopped || r.stopped.reason === 'left') continue;
    const key = `${r.lastStep}: ${r.stopped.detail}`;
    stops.set(key, (stops.get(key) ?? 0) + 1);
  }
  const stuck = [...stops.entries()].map(([key, n]) => `${n} stopped at ${key}`);
  const left = results.filter((r) => r.stopped?.reason === 'left').length;
  const leftNote = left > 0 ? ` ${left} left on the way (their tendency to leave).` : '';
  if (pathway.exitStep !== null) {
    const passed = results.filter((r) => r.steps.some((s) => s.step === pathway.exitStep)).length;
    return (
      `No persona's answers led here: ${passed} answered at ${pathway.exitStep} and none took this exit.` +
      (stuck.length > 0 ? ` ${stuck.join('; ')}.` : '') +
      leftNote
    );
  }
  if (stuck.length > 0) return `No persona passed every step: ${stuck.join('; ')}.${leftNote}`;
  return `No persona's walk ended here (their answers ended it elsewhere).${leftNote}`;
}

export function buildReport(input: ReportInput): PilotReport {
  const { results, targetSample } = input;
  const pathways: PilotPathwayResult[] = input.pathways.map((p) => {
    const reached = results.filter((r) => r.pathway === p.key).length;
    return { key: p.key, label: p.label, reached, why: reached > 0 ? null : whyNotReached(p, input) };
  });

  const arms: PilotArmResult[] = input.arms.map((arm) => {
    const mine = results.filter((r) => r.condition === arm.condition);
    const chatted = mine.filter((r) => r.chat !== null);
    const reached = chatted.filter((r) => r.chat?.ruleReached);
    const rounds = reached.map((r) => r.chat?.rounds ?? 0);
    const completers = mine.filter((r) => r.pathway !== null && r.stopped === null);
    const per = {
      inputTokens: Math.round(mean(chatted.map((r) => r.inputTokens))),
      outputTokens: Math.round(mean(chatted.map((r) => r.outputTokens))),
      costUsd: round6(mean(chatted.map((r) => r.costUsd))),
    };
    const participants = arm.share * targetSample;
    // Everyone in the arm chats (the walk reaches the chat); the mean over those who did is the best guess.
    const chatting = chatted.length === 0 ? 0 : participants;
    const estimate = input.estimate?.arms.find((a) => a.condition === arm.condition);
    return {
      condition: arm.condition,
      label: arm.label,
      share: arm.share,
      participants: mine.length,
      completed: completers.length,
      chatStarted: chatted.length,
      ruleReached: reached.length,
      rounds:
        rounds.length === 0 ? null : { min: Math.min(...rounds), median: median(rounds), max: Math.max(...rounds) },
      minimumSeconds: arm.minimumSeconds,
      simulatedSeconds: completers.length === 0 ? null : median(completers.map((r) => r.simulatedSeconds)),
      perParticipant: per,
      atArmModel: arm.model
        ? {
            model: arm.model.name,
            costUsd: round6(
              (per.inputTokens * arm.model.inputPerMTok + per.outputTokens * arm.model.outputPerMTok) / 1_000_000,
            ),
          }
        : null,
      projected: {
        participants,
        inputTokens: Math.round(per.inputTokens * chatting),
        outputTokens: Math.round(per.outputTokens * chatting),
        costUsd: round6(per.costUsd * chatting),
      },
      estimatedCostUsd: estimate?.total.uncached ?? null,
    };
  });

  const stepOrder: string[] = [];
  const byStep = new Map<string, StepTime[]>();
  for (const r of results) {
    for (const s of r.steps) {
      if (!byStep.has(s.step)) {
        byStep.set(s.step, []);
        stepOrder.push(s.step);
      }
      byStep.get(s.step)?.push(s);
    }
  }
  const steps: PilotStepResult[] = stepOrder.map((step) => {
    const times = byStep.get(step) ?? [];
    return {
      step,
      reached: times.length,
      minimumSeconds: median(times.map((t) => t.minimumSeconds)),
      simulatedSeconds: median(times.map((t) => t.simulatedSeconds)),
    };
  });

  const warnings = [...input.warnings];
  for (const p of pathways) {
    if (p.reached === 0) warnings.push({ path: `pathways.${p.key}`, message: `No persona reached "${p.label}".` });
  }
  for (const arm of arms) {
    if (arm.chatStarted > arm.ruleReached)
      warnings.push({
        path: `arms.${arm.condition}`,
        message: `${arm.chatStarted - arm.ruleReached} of ${arm.chatStarted} chats in "${arm.label}" did not reach their rule.`,
      });
  }
  const refused = results.filter((r) => r.stopped?.reason === 'refused');
  if (refused.length > 0)
    warnings.push({
      path: '',
      message: `The server refused ${refused.length} persona(s) a step: ${[...new Set(refused.map((r) => `${r.lastStep} (${r.stopped?.detail ?? ''})`))].join('; ')}.`,
    });

  return {
    kind: input.kind,
    studyTitle: input.studyTitle,
    participants: results.length,
    targetSample,
    seed: input.seed,
    durationMs: input.durationMs,
    completed: results.filter((r) => r.pathway !== null).length,
    pathways,
    arms,
    steps,
    projected: {
      inputTokens: arms.reduce((s, a) => s + a.projected.inputTokens, 0),
      outputTokens: arms.reduce((s, a) => s + a.projected.outputTokens, 0),
      costUsd: round6(arms.reduce((s, a) => s + a.projected.costUsd, 0)),
    },
    warnings,
    results: results.map(({ steps: _steps, ...r }) => r),
    caveat: PILOT_CAVEAT,
  };
}
