import { describe, expect, it } from 'vitest';
import type { PilotParticipantResult } from '@studychat/contracts';
import { buildReport, median, type ReportInput } from './pilot-report.js';
import type { StepTime } from './pilot-walker.js';

type Result = PilotParticipantResult & { steps: StepTime[] };

const persona = { ageGroup: '25-34', stance: 'hesitant', verbosity: 'average', leaveTendency: 0 } as const;

function result(index: number, over: Partial<Result>): Result {
  return {
    index,
    persona,
    userId: `u${index}`,
    prolificPid: `PILOT-${index}`,
    condition: 'a',
    pathway: 'complete',
    lastStep: 'completed',
    stopped: null,
    simulatedSeconds: 300,
    chat: { rounds: 3, ruleReached: true, closed: null },
    inputTokens: 1000,
    outputTokens: 200,
    costUsd: 0.01,
    steps: [
      { step: 'baseline', minimumSeconds: 0, simulatedSeconds: 10 },
      { step: 'sections', minimumSeconds: 120, simulatedSeconds: 140 },
    ],
    ...over,
  };
}

function input(results: Result[]): ReportInput {
  return {
    kind: 'built-in',
    studyTitle: 'A study',
    targetSample: 100,
    seed: 1,
    durationMs: 5,
    results,
    pathways: [
      { key: 'complete', label: 'whole study', exitStep: null },
      { key: 'ceiling', label: 'baseline 7', exitStep: 'baseline' },
    ],
    arms: [
      { condition: 'a', label: 'Arm A', share: 0.75, minimumSeconds: 120, model: null },
      {
        condition: 'b',
        label: 'Arm B',
        share: 0.25,
        minimumSeconds: 60,
        model: { name: 'claude-x', inputPerMTok: 3, outputPerMTok: 15 },
      },
    ],
    estimate: null,
    warnings: [{ path: 'steps.1', message: 'A flow warning' }],
  };
}

describe('the pilot report', () => {
  it('takes medians of odd and even counts', () => {
    expect(median([])).toBe(0);
    expect(median([5, 1, 3])).toBe(3);
    expect(median([4, 1, 3, 2])).toBe(2.5);
  });

  it('projects each arm at its share of the target sample from the mean per participant who chatted', () => {
    const report = buildReport(
      input([
        result(0, {}),
        result(1, { chat: { rounds: 5, ruleReached: true, closed: null }, inputTokens: 3000, costUsd: 0.03 }),
        result(2, { condition: 'b', inputTokens: 2000, outputTokens: 400 }),
      ]),
    );
    const [a, b] = report.arms;
    expect(a).toMatchObject({
      participants: 2,
      completed: 2,
      ruleReached: 2,
      rounds: { min: 3, median: 4, max: 5 },
      perParticipant: { inputTokens: 2000, outputTokens: 200, costUsd: 0.02 },
      projected: { participants: 75, inputTokens: 150_000, outputTokens: 15_000, costUsd: 1.5 },
      atArmModel: null,
    });
    // 2000 x $3 + 400 x $15 per million tokens.
    expect(b?.atArmModel).toEqual({ model: 'claude-x', costUsd: 0.012 });
    expect(report.projected.inputTokens).toBe(150_000 + 50_000);
    expect(report.steps).toEqual([
      { step: 'baseline', reached: 3, minimumSeconds: 0, simulatedSeconds: 10 },
      { step: 'sections', reached: 3, minimumSeconds: 120, simulatedSeconds: 140 },
    ]);
  });

  it('says why a pathway was not reached: no one took its exit, or where the walks stopped', () => {
    const report = buildReport(
      input([
        result(0, {}),
        result(1, {
          pathway: null,
          lastStep: 'chat',
          stopped: { reason: 'refused', detail: '409 CHAT_CLOSED: closed' },
          chat: { rounds: 2, ruleReached: false, closed: null },
        }),
        result(2, { pathway: null, lastStep: 'entry', stopped: { reason: 'left', detail: 'left' }, steps: [] }),
      ]),
    );
    const ceiling = report.pathways.find((p) => p.key === 'ceiling');
    expect(ceiling?.reached).toBe(0);
    expect(ceiling?.why).toBe(
      "No persona's answers led here: 2 answered at baseline and none took this exit. 1 stopped at chat: 409 " +
        'CHAT_CLOSED: closed. 1 left on the way (their tendency to leave).',
    );
    expect(report.pathways.find((p) => p.key === 'complete')?.why).toBeNull();
    expect(report.warnings.map((w) => w.path)).toEqual(['steps.1', 'pathways.ceiling', 'arms.a', '']);
    expect(report.warnings.at(-1)?.message).toMatch(/refused 1 persona/);
    expect(report.completed).toBe(1);
    expect(report.results[0]).not.toHaveProperty('steps');
  });
});
