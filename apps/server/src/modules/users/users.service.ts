import { chmodSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { AppDeps } from '../../lib/deps.js';
import { AppError, conflict, notFound } from '../../lib/errors.js';
import { toBool } from '../../db/values.js';
import {
  countAdmins,
  deleteUser,
  findStaffRow,
  findUserByEmail,
  insertUser,
  listStaffRows,
  lockAdmins,
  setStaffRole,
} from './user.repository.js';
import { generatePassword, hashPassword } from './password.js';

export interface CreateUserInput {
  email: string;
  password: string;
  isAdmin: boolean;
  /** 'analyst' for a read-only admin-area account; otherwise the role follows isAdmin. */
  role?: 'analyst' | undefined;
  metadata?: Record<string, unknown> | undefined;
}

/** Creates an account; the email is stored lower-cased and must be unused. */
export async function createUser(deps: AppDeps, input: CreateUserInput): Promise<{ id: string; email: string }> {
  const { db } = deps.database;
  const email = input.email.trim().toLowerCase();
  if (await findUserByEmail(db, email)) throw conflict(`An account with email ${email} already exists`);
  const now = deps.clock().toISOString();
  const id = deps.newId();
  await insertUser(db, {
    id,
    email,
    password_hash: await hashPassword(input.password),
    is_admin: input.isAdmin,
    role: input.isAdmin ? 'admin' : (input.role ?? 'participant'),
    metadata: input.metadata ? JSON.stringify(input.metadata) : null,
    created_at: now,
    updated_at: now,
    last_login_at: null,
  });
  return { id, email };
}

export type BootstrapResult =
  | { created: false }
  | { created: true; email: string; generatedPassword: string | undefined; passwordFile: string | undefined };

export const DEFAULT_ADMIN_EMAIL = 'admin@example.com';

/**
 * On first start (no admin yet), creates the admin from ADMIN_EMAIL/ADMIN_PASSWORD, or generates a
 * password and writes it to an owner-only file in the data folder.
 */
export async function bootstrapAdmin(
  deps: AppDeps,
  options: { email: string | undefined; password: string | undefined; dataDir: string },
): Promise<BootstrapResult> {
  if ((await countAdmins(deps.database.db)) > 0) return { created: false };
  const email = options.email ?? DEFAULT_ADMIN_EMAIL;
  const generatedPassword = options.password ? undefined : generatePassword(24);
  const password = options.password ?? generatedPassword ?? '';
  const user = await createUser(deps, { email, password, isAdmin: true });
  let passwordFile: string | undefined;
  if (generatedPassword) {
    mkdirSync(options.dataDir, { recursive: true });
    passwordFile = path.join(options.dataDir, 'admin-password.txt');
    writeFileSync(passwordFile, `email: ${email}\npassword: ${generatedPassword}\n`, { mode: 0o600 });
    chmodSync(passwordFile, 0o600);
  }
  return { created: true, email: user.email, generatedPassword, passwordFile };
}

export type StaffRow = NonNullable<Awaited<ReturnType<typeof findStaffRow>>>;
export type StaffRoleName = 'admin' | 'analyst';

export const STAFF_NOT_FOUND = 'No admin or analyst account with this id';

export function staffRoleOf(row: { is_admin: boolean | number }): StaffRoleName {
  return toBool(row.is_admin) ? 'admin' : 'analyst';
}

function lastAdmin(change: 'remove' | 'demote'): AppError {
  return new AppError(
    409,
    'LAST_ADMIN',
    change === 'remove'
      ? 'This is the last admin account: add another admin before removing it.'
      : 'This is the last admin account: add another admin before making it an analyst.',
  );
}

/** Admins and analysts, oldest first (participants are study logins, not people of the admin area). */
export function listStaffAccounts(deps: AppDeps): Promise<StaffRow[]> {
  return listStaffRows(deps.database.db);
}

export async function findStaffAccount(deps: AppDeps, id: string): Promise<StaffRow> {
  const row = await findStaffRow(deps.database.db, id);
  if (!row) throw notFound(STAFF_NOT_FOUND);
  return row;
}

/** A new admin or analyst with a generated one-time password, returned once (only its hash is stored). */
export async function createStaffAccount(
  deps: AppDeps,
  email: string,
  role: StaffRoleName,
): Promise<{ row: StaffRow; password: string }> {
  const password = generatePassword(20);
  const created = await createUser(deps, {
    email,
    password,
    isAdmin: role === 'admin',
    role: role === 'analyst' ? 'analyst' : undefined,
  });
  return { row: await findStaffAccount(deps, created.id), password };
}

/**
 * Makes a staff account an admin or an analyst; refused (409 LAST_ADMIN) when it would leave no admin. The admins
 * are locked first, so two admins demoting each other at once cannot both succeed. `changed` is false for its own
 * role again (nothing written).
 */
export async function changeStaffRole(
  deps: AppDeps,
  id: string,
  role: StaffRoleName,
): Promise<{ row: StaffRow; changed: boolean }> {
  return deps.database.db.transaction().execute(async (trx) => {
    await lockAdmins(trx);
    const row = await findStaffRow(trx, id);
    if (!row) throw notFound(STAFF_NOT_FOUND);
    if (staffRoleOf(row) === role) return { row, changed: false };
    if (role === 'analyst' && (await countAdmins(trx)) <= 1) throw lastAdmin('demote');
    await setStaffRole(trx, id, role, deps.clock().toISOString());
    return { row: { ...row, is_admin: role === 'admin', role }, changed: true };
  });
}

/** Deletes a staff account; refused (409 LAST_ADMIN) for the last admin. Returns the account as it was. */
export async function removeStaffAccount(deps: AppDeps, id: string): Promise<StaffRow> {
  return deps.database.db.transaction().execute(async (trx) => {
    await lockAdmins(trx);
    const row = await findStaffRow(trx, id);
    if (!row) throw notFound(STAFF_NOT_FOUND);
    if (staffRoleOf(row) === 'admin' && (await countAdmins(trx)) <= 1) throw lastAdmin('remove');
    await deleteUser(trx, id);
    return row;
  });
}

// The users module's public API for other modules (they never import its repository).
export { findUserById, insertUser } from './user.repository.js';

// The users module's public API for other modules (revoking a study login, deleting a draft experiment's logins).
export { deleteAccounts, disableAccount } from './user.repository.js';
