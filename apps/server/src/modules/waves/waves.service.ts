import { NOT_IN_EARLIER_WAVE_TEXT, type WaveSetting } from '@studychat/contracts';
import type { AppDeps } from '../../lib/deps.js';
import { AppError, badRequest, notFound } from '../../lib/errors.js';
import { EXPERIMENT_NOT_FOUND, experimentRoleOf, hiddenExperimentIds, type Who } from '../members/members.service.js';
import {
  experimentName,
  findFollowed,
  finishedBy,
  hasRealParticipants,
  listFollowers,
  setFollowed,
} from './waves.repository.js';

// Follow-up waves (issue 33, docs/decisions/0091-follow-up-waves.md): an experiment may follow another, its wave 1.
// Its landing then admits only a Prolific id that finished wave 1 (checked when the participant joins, whatever
// the way they join), and its data package joins the waves by Prolific id. The setting is fixed once real
// participants have joined, so every participant of a wave was admitted under the same rule.

/** How far a chain of waves is followed before it is taken for a loop (a study of more waves than this is not). */
const MAX_WAVES = 20;

const NO_SUCH_EXPERIMENT = 'There is no experiment with that id that you can see.';

export async function waveSetting(deps: AppDeps, experimentId: string, who: Who): Promise<WaveSetting> {
  const { db } = deps.database;
  if (!(await experimentName(db, experimentId))) throw notFound(EXPERIMENT_NOT_FOUND);
  const followed = await findFollowed(db, experimentId);
  const follows = followed ? ((await experimentName(db, followed.follows_experiment_id)) ?? null) : null;
  const hidden = await hiddenExperimentIds(deps, who.userId);
  const followedBy = (await listFollowers(db, experimentId)).filter((e) => !hidden.has(e.id));
  return {
    follows: follows && !hidden.has(follows.id) ? follows : null,
    followedBy,
    locked: await hasRealParticipants(db, experimentId),
  };
}

/** The experiments this one follows, nearest first (its wave 1 last). */
export async function earlierWaves(deps: AppDeps, experimentId: string): Promise<string[]> {
  const chain: string[] = [];
  let at = experimentId;
  for (let i = 0; i < MAX_WAVES; i++) {
    const followed = await findFollowed(deps.database.db, at);
    if (!followed || chain.includes(followed.follows_experiment_id)) break;
    chain.push(followed.follows_experiment_id);
    at = followed.follows_experiment_id;
  }
  return chain;
}

/**
 * Makes the experiment follow another (its wave 1), or no other (null). The other must be one the caller may see,
 * not the experiment itself nor one that follows it (no loop); refused once real participants have joined (409
 * WAVE_LOCKED).
 */
export async function setWave(
  deps: AppDeps,
  experimentId: string,
  who: Who,
  followsId: string | null,
): Promise<WaveSetting> {
  const { db } = deps.database;
  if (!(await experimentName(db, experimentId))) throw notFound(EXPERIMENT_NOT_FOUND);
  if (followsId !== null) {
    if (followsId === experimentId) throw badRequest('An experiment cannot follow itself.');
    const visible = (await experimentName(db, followsId)) && (await experimentRoleOf(deps, followsId, who)) !== null;
    if (!visible) throw badRequest(NO_SUCH_EXPERIMENT);
    if ((await earlierWaves(deps, followsId)).includes(experimentId)) {
      throw badRequest('That experiment already follows this one: the waves would go round in a loop.');
    }
  }
  if (await hasRealParticipants(db, experimentId)) {
    throw new AppError(
      409,
      'WAVE_LOCKED',
      'Participants have already joined this experiment, so the wave it follows can no longer change.',
    );
  }
  const at = deps.clock().toISOString();
  await db.transaction().execute((trx) => setFollowed(trx, { experimentId, follows: followsId, by: who.userId, at }));
  return waveSetting(deps, experimentId, who);
}

/**
 * At the join: a follow-up wave admits only a Prolific id that finished the wave it follows (a real participant,
 * not withdrawn); any other is refused with 403 NOT_IN_EARLIER_WAVE and nothing is written.
 */
export async function assertInEarlierWave(deps: AppDeps, experimentId: string, prolificPid: string): Promise<void> {
  const followed = await findFollowed(deps.database.db, experimentId);
  if (!followed) return;
  if (!(await finishedBy(deps.database.db, followed.follows_experiment_id, prolificPid))) {
    throw new AppError(403, 'NOT_IN_EARLIER_WAVE', NOT_IN_EARLIER_WAVE_TEXT);
  }
}

/**
 * The whole study an experiment belongs to, wave by wave: the experiments it follows and those that follow it
 * (directly or not), each with its wave number from 1 (the first wave); null when it follows none and none follows
 * it. Reads through `deps` (a snapshot's transaction when a data package is built).
 */
export async function wavesOfStudy(
  deps: AppDeps,
  experimentId: string,
): Promise<{ experimentId: string; wave: number }[] | null> {
  const earlier = (await earlierWaves(deps, experimentId)).reverse();
  const chain = [...earlier.map((id, i) => ({ experimentId: id, wave: i + 1 }))];
  chain.push({ experimentId, wave: earlier.length + 1 });
  let frontier = [experimentId];
  for (let depth = earlier.length + 2; frontier.length > 0 && depth <= MAX_WAVES; depth++) {
    const next: string[] = [];
    for (const id of frontier) {
      for (const follower of await listFollowers(deps.database.db, id)) {
        if (chain.some((c) => c.experimentId === follower.id)) continue;
        chain.push({ experimentId: follower.id, wave: depth });
        next.push(follower.id);
      }
    }
    frontier = next;
  }
  return chain.length > 1 ? chain : null;
}
