import type { ParticipantGroup, ParticipantGroupReply, ParticipantGroupResult } from '@studychat/contracts';
import { toIso } from '../../db/values.js';
import { AppError, badRequest, conflict, notFound } from '../../lib/errors.js';
import { EXPERIMENT_NOT_FOUND } from '../members/members.service.js';
import { asAppError, clientOf, type ProlificRuntime } from '../prolific/prolific.service.js';
import { addToParticipantGroup, createParticipantGroup } from './prolific-groups.js';
import {
  claimGroup,
  completerIds,
  experimentName,
  findGroup,
  recordGroup,
  releaseClaim,
  takeOverClaim,
} from './waves.repository.js';

// A Prolific participant group of an experiment's chosen completers (issue 33, docs/decisions/0091): made once per
// experiment, then added to (Prolific ignores ids already in it), so a wave-2 study on Prolific can be shown to
// exactly them. The making is claimed in the database first, so a double click or two admins make one group.

/** A claim older than this is taken to be left by a request that died mid-way, and is taken over. */
const STALE_CLAIM_MS = 2 * 60_000;

type GroupRow = NonNullable<Awaited<ReturnType<typeof findGroup>>>;

function toGroup(row: GroupRow): ParticipantGroup {
  return {
    groupId: row.group_id,
    name: row.name,
    workspaceId: row.workspace_id,
    participants: Number(row.participants),
    updatedAt: toIso(row.updated_at),
  };
}

export async function participantGroup(runtime: ProlificRuntime, experimentId: string): Promise<ParticipantGroupReply> {
  const { db } = runtime.deps.database;
  if (!(await experimentName(db, experimentId))) throw notFound(EXPERIMENT_NOT_FOUND);
  const row = await findGroup(db, experimentId);
  return { group: row ? toGroup(row) : null };
}

export async function makeParticipantGroup(
  runtime: ProlificRuntime,
  experimentId: string,
  body: { name: string; workspace_id: string; pathways: string[] },
): Promise<ParticipantGroupResult> {
  const { deps } = runtime;
  const { db } = deps.database;
  if (!(await experimentName(db, experimentId))) throw notFound(EXPERIMENT_NOT_FOUND);
  const client = await clientOf(runtime);
  if (!client) throw new AppError(409, 'PROLIFIC_NOT_CONFIGURED', 'Set a Prolific API token first.');
  const ids = await completerIds(db, experimentId, body.pathways);
  if (ids.length === 0) throw badRequest('No participant has finished on those pathways yet.');
  const now = () => deps.clock().toISOString();

  let row = await findGroup(db, experimentId);
  if (!row) {
    const claimed = await claimGroup(db, { experimentId, name: body.name, workspaceId: body.workspace_id, at: now() });
    row = await findGroup(db, experimentId);
    if (!row) throw conflict('The participant group changed meanwhile: try again.');
    if (claimed) return create(runtime, row, ids, client);
  }
  if (row.group_id === null) {
    const stale = deps.clock().getTime() - new Date(toIso(row.updated_at)).getTime() > STALE_CLAIM_MS;
    if (stale && (await takeOverClaim(db, experimentId, toIso(row.updated_at), now()))) {
      return create(runtime, row, ids, client);
    }
    throw conflict('The participant group is being made: try again in a moment.');
  }
  const groupId = row.group_id;
  let total: number;
  try {
    total = await addToParticipantGroup(client, groupId, ids);
  } catch (error) {
    throw asAppError(error);
  }
  const before = Number(row.participants);
  await recordGroup(db, { experimentId, groupId, participants: total, at: now() });
  const updated = await findGroup(db, experimentId);
  return { group: toGroup(updated ?? row), added: Math.max(0, total - before) };
}

async function create(
  runtime: ProlificRuntime,
  row: GroupRow,
  ids: string[],
  client: NonNullable<Awaited<ReturnType<typeof clientOf>>>,
): Promise<ParticipantGroupResult> {
  const { db } = runtime.deps.database;
  let groupId: string;
  try {
    groupId = await createParticipantGroup(client, { name: row.name, workspaceId: row.workspace_id, ids });
  } catch (error) {
    await releaseClaim(db, row.experiment_id);
    throw asAppError(error);
  }
  const at = runtime.deps.clock().toISOString();
  await recordGroup(db, { experimentId: row.experiment_id, groupId, participants: ids.length, at });
  const made = await findGroup(db, row.experiment_id);
  return { group: toGroup(made ?? { ...row, group_id: groupId }), added: ids.length };
}
