import type { FlowProgressReply } from '@studychat/contracts';
import { readSnapshot } from '../../db/dialect.js';
import type { AppDeps } from '../../lib/deps.js';
import { AppError } from '../../lib/errors.js';
import { requireExperiment } from '../experiments/experiments.service.js';
import { flowRecordsOf } from './flow-columns.js';
import { flowParticipantPages } from './flow-package.repository.js';

// The monitor of a study written as a flow (issue 30): where each participant is, counted by step, pathway and
// condition in the study's own words, from the records the data package reads (one snapshot), so the counts and
// the table always agree.

const PAGE = 2000;

export async function flowProgress(
  deps: AppDeps,
  experimentId: string,
  includeTests: boolean,
): Promise<FlowProgressReply> {
  await requireExperiment(deps, experimentId);
  const flow = await deps.flows(experimentId);
  if (!flow) {
    throw new AppError(
      409,
      'NOT_A_FLOW_STUDY',
      'This experiment runs the built-in study: its monitor is the live monitor.',
    );
  }
  const now = deps.clock().getTime();
  const participants = await readSnapshot(deps.database.db, async (trx) => {
    const rows: FlowProgressReply['participants'] = [];
    for await (const page of flowParticipantPages(trx, experimentId, PAGE, includeTests)) {
      for (const one of page) {
        const { participant: p } = flowRecordsOf(flow, one, now);
        rows.push({
          userId: p.userId,
          prolificPid: p.prolificPid,
          condition: p.condition,
          lastStep: p.lastStep,
          pathway: p.pathway,
          joinedAt: p.joinedAt,
          completedAt: p.completedAt,
          flagged: p.flagged,
        });
      }
    }
    return rows;
  });
  const count =
    <T>(predicate: (p: FlowProgressReply['participants'][number]) => T) =>
    (value: T) =>
      participants.filter((p) => predicate(p) === value).length;
  const atStep = count((p) => p.lastStep);
  const onPathway = count((p) => p.pathway);
  const inCondition = count((p) => p.condition);
  return {
    total: participants.length,
    byStep: [
      ...flow.steps
        .filter((s) => s.type !== 'screen')
        .map((s) => ({ stepId: s.id, type: s.type, count: atStep(s.id) })),
      { stepId: 'completed', type: 'completed', count: atStep('completed') },
    ],
    byPathway: flow.pathways.map((p) => ({ key: p.key, label: p.label, count: onPathway(p.key) })),
    byCondition: flow.conditions.map((c) => ({ id: c.id, label: c.label, count: inCondition(c.id) })),
    participants,
  };
}
