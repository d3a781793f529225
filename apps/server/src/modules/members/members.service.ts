import type { AddMemberBody, ExperimentMembers, ExperimentRole, Role } from '@studychat/contracts';
import type { Kysely, Transaction } from 'kysely';
import type { DB } from '../../db/schema.js';
import { toIso } from '../../db/values.js';
import type { AppDeps } from '../../lib/deps.js';
import { badRequest, conflict, notFound } from '../../lib/errors.js';
import {
  deleteMember,
  experimentExists,
  findAccessRows,
  findHiddenExperimentIds,
  findStaffByEmail,
  insertMember,
  listMemberRows,
  lockExperiment,
  updateMemberRole,
  type MemberRow,
} from './members.repository.js';

// The people on an experiment (issue 34, docs/decisions/0087). An experiment with an owner is members-only: a
// staff account that is not a member does not see it (404, as if it did not exist, and absent from lists). One
// without an owner is lab-wide (the experiments from before members, or one whose owners' accounts were all
// deleted): staff act by their account role. A member acts by the lower of their member role and their account
// role: an analyst is a viewer at most. The route check that applies this is plugins/experiment-access.ts.

export interface Who {
  userId: string;
  role: Role;
}

const RANK: Record<ExperimentRole, number> = { viewer: 1, editor: 2, owner: 3 };

/** Does `role` allow what needs `needed`? */
export function allows(role: ExperimentRole, needed: ExperimentRole): boolean {
  return RANK[role] >= RANK[needed];
}

function lower(a: ExperimentRole, b: ExperimentRole): ExperimentRole {
  return RANK[a] <= RANK[b] ? a : b;
}

/** What a staff account's account role allows on any experiment at most. */
function accountCap(role: Role | string): ExperimentRole {
  return role === 'admin' ? 'owner' : 'viewer';
}

const NOT_AN_ANALYSTS_ROLE = 'An analyst can be a viewer only: make the account an admin first.';

/**
 * What the staff caller may do on the experiment: owner, editor or viewer; null when it is members-only and the
 * caller is not a member (the caller must then hear that it does not exist). An experiment that does not exist
 * is lab-wide here: the route itself answers 404.
 */
export async function experimentRoleOf(deps: AppDeps, experimentId: string, who: Who): Promise<ExperimentRole | null> {
  const rows = await findAccessRows(deps.database.db, experimentId, who.userId);
  const cap = accountCap(who.role);
  if (!rows.some((r) => r.role === 'owner')) return cap;
  const mine = rows.find((r) => r.user_id === who.userId);
  return mine ? lower(mine.role as ExperimentRole, cap) : null;
}

/** The experiments a staff account may not see (members-only, not a member): lists leave them out. */
export async function hiddenExperimentIds(deps: AppDeps, userId: string): Promise<Set<string>> {
  return new Set(await findHiddenExperimentIds(deps.database.db, userId));
}

/** Makes the creator of a new experiment its owner, in the transaction that creates it. */
export async function addCreatorAsOwner(
  trx: Kysely<DB> | Transaction<DB>,
  experimentId: string,
  userId: string,
  at: string,
): Promise<void> {
  await insertMember(trx, {
    experiment_id: experimentId,
    user_id: userId,
    role: 'owner',
    added_by: userId,
    created_at: at,
  });
}

function toMembers(rows: MemberRow[], yourRole: ExperimentRole): ExperimentMembers {
  return {
    lab_wide: !rows.some((r) => r.role === 'owner'),
    your_role: yourRole,
    members: rows.map((r) => ({
      user_id: r.user_id,
      email: r.email,
      role: r.role as ExperimentRole,
      account_role: r.account_role === 'admin' ? 'admin' : 'analyst',
      added_by: r.added_by,
      created_at: toIso(r.created_at),
    })),
  };
}

export async function listMembers(deps: AppDeps, experimentId: string, who: Who): Promise<ExperimentMembers> {
  const role = await experimentRoleOf(deps, experimentId, who);
  if (!role) throw notFound(EXPERIMENT_NOT_FOUND);
  const rows = await listMemberRows(deps.database.db, experimentId);
  // A lab-wide experiment that does not exist has no rows either: say so, as every experiment route does.
  if (rows.length === 0 && !(await experimentExists(deps.database.db, experimentId)))
    throw notFound(EXPERIMENT_NOT_FOUND);
  return toMembers(rows, role);
}

/** The message every experiment route answers for one that does not exist (or that the caller may not see). */
export const EXPERIMENT_NOT_FOUND = 'Experiment not found';

/** A change of members, in one transaction that holds the experiment's row (two changes cannot both leave no owner). */
async function change(
  deps: AppDeps,
  experimentId: string,
  who: Who,
  write: (trx: Transaction<DB>, rows: MemberRow[], now: string) => Promise<void>,
): Promise<ExperimentMembers> {
  const now = deps.clock().toISOString();
  const rows = await deps.database.db.transaction().execute(async (trx) => {
    if (!(await lockExperiment(trx, experimentId))) throw notFound(EXPERIMENT_NOT_FOUND);
    await write(trx, await listMemberRows(trx, experimentId), now);
    return listMemberRows(trx, experimentId);
  });
  return toMembers(rows, (await experimentRoleOf(deps, experimentId, who)) ?? 'viewer');
}

function capFor(accountRole: string, role: ExperimentRole): void {
  if (accountRole !== 'admin' && role !== 'viewer') throw badRequest(NOT_AN_ANALYSTS_ROLE);
}

function lastOwner(rows: MemberRow[], userId: string): boolean {
  const owners = rows.filter((r) => r.role === 'owner');
  return owners.length === 1 && owners[0]?.user_id === userId;
}

/**
 * Adds a staff account by email. On a lab-wide experiment (no owner yet) the caller, an admin, becomes its owner
 * in the same change: sharing an experiment makes it members-only, so someone must be able to manage it.
 */
export async function addMember(
  deps: AppDeps,
  experimentId: string,
  who: Who,
  body: AddMemberBody,
): Promise<ExperimentMembers> {
  return change(deps, experimentId, who, async (trx, rows, now) => {
    const account = await findStaffByEmail(trx, body.email);
    if (!account) throw notFound('No admin or analyst account has that email.');
    capFor(account.role, body.role);
    if (rows.some((r) => r.user_id === account.id)) {
      throw conflict('That account is already on this experiment: change its role instead.');
    }
    const noOwner = !rows.some((r) => r.role === 'owner');
    if (noOwner && account.id !== who.userId) {
      if (rows.some((r) => r.user_id === who.userId)) await updateMemberRole(trx, experimentId, who.userId, 'owner');
      else
        await insertMember(trx, {
          experiment_id: experimentId,
          user_id: who.userId,
          role: 'owner',
          added_by: who.userId,
          created_at: now,
        });
    }
    const role = noOwner && account.id === who.userId ? 'owner' : body.role;
    await insertMember(trx, {
      experiment_id: experimentId,
      user_id: account.id,
      role,
      added_by: who.userId,
      created_at: now,
    });
  });
}

export async function setMemberRole(
  deps: AppDeps,
  experimentId: string,
  who: Who,
  userId: string,
  role: ExperimentRole,
): Promise<ExperimentMembers> {
  return change(deps, experimentId, who, async (trx, rows) => {
    const member = rows.find((r) => r.user_id === userId);
    if (!member) throw notFound('That account is not on this experiment.');
    capFor(member.account_role, role);
    if (role !== 'owner' && lastOwner(rows, userId)) {
      throw conflict('This is the experiment’s only owner: make someone else an owner first.');
    }
    await updateMemberRole(trx, experimentId, userId, role);
  });
}

export async function removeMember(deps: AppDeps, experimentId: string, who: Who, userId: string): Promise<void> {
  await change(deps, experimentId, who, async (trx, rows) => {
    const member = rows.find((r) => r.user_id === userId);
    if (!member) throw notFound('That account is not on this experiment.');
    if (lastOwner(rows, userId)) {
      throw conflict('This is the experiment’s only owner: make someone else an owner first.');
    }
    await deleteMember(trx, experimentId, userId);
  });
}
