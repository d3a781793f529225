import { chmodSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { AppDeps } from '../../lib/deps.js';
import { conflict } from '../../lib/errors.js';
import { countAdmins, findUserByEmail, insertUser } from './user.repository.js';
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

// The users module's public API for other modules (they never import its repository).
export { findUserById, insertUser } from './user.repository.js';

// The users module's public API for other modules (revoking a study login, deleting a draft experiment's logins).
export { deleteAccounts, disableAccount } from './user.repository.js';
