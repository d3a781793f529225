import { randomInt } from 'node:crypto';
import { CREDENTIAL_BATCH_MAX, type GeneratedCredential } from '@studychat/contracts';
import type { AppDeps } from '../../lib/deps.js';
import { badRequest, notFound } from '../../lib/errors.js';
import { generatePassword, hashGeneratedPassword } from '../users/password.js';
import { STUDY_LOGIN_DOMAIN } from '../users/study-login.js';
import { findExperimentById } from './experiments.repository.js';
import { EXPERIMENT_NOT_FOUND } from './experiments.service.js';
import { insertStudyLogins } from './study-logins.repository.js';

const INSERT_CHUNK = 100;
const EMAIL_ALPHABET = 'abcdefghjkmnpqrstuvwxyz23456789';
const PASSWORD_LENGTH = 16;
const MAX_EMAIL_ATTEMPTS = 10;

/** A research-style study address such as study-k3m9x2pq@studychat.local (40 random bits). */
export function generateStudyEmail(): string {
  let local = '';
  for (let i = 0; i < 8; i++) local += EMAIL_ALPHABET[randomInt(EMAIL_ALPHABET.length)];
  return `study-${local}@${STUDY_LOGIN_DOMAIN}`;
}

/**
 * Generates `count` study logins for an experiment. Passwords are returned once and stored only as an
 * HMAC under the server's pepper (long random strings need no slow hash: docs/decisions/0018); each login
 * records in its metadata which experiment and batch it belongs to, and is listed in study_logins so the
 * experiment page can show it as used or unused.
 */
export async function generateCredentials(
  deps: AppDeps,
  pepper: string,
  experimentId: string,
  count: number,
  generatedBy: string,
  newEmail: () => string = generateStudyEmail,
): Promise<GeneratedCredential[]> {
  if (!Number.isInteger(count) || count < 1 || count > CREDENTIAL_BATCH_MAX) {
    throw badRequest(`count must be a whole number from 1 to ${CREDENTIAL_BATCH_MAX}`);
  }
  const { db } = deps.database;
  if (!(await findExperimentById(db, experimentId))) throw notFound(EXPERIMENT_NOT_FOUND);

  const logins = Array.from({ length: count }, () => {
    const password = generatePassword(PASSWORD_LENGTH);
    return { id: deps.newId(), email: newEmail(), password, passwordHash: hashGeneratedPassword(password, pepper) };
  });
  const now = deps.clock().toISOString();
  const batchId = deps.newId();
  const metadata = JSON.stringify({ experimentId, batchId, generatedAt: now, generatedBy });

  // All or nothing: a batch is either stored whole or not at all.
  await db.transaction().execute(async (trx) => {
    for (let start = 0; start < logins.length; start += INSERT_CHUNK) {
      const chunk = logins.slice(start, start + INSERT_CHUNK);
      // 40 random bits make a clash with an existing address unlikely; skip any and replace them below.
      const inserted = await trx
        .insertInto('users')
        .values(chunk.map((l) => userRow(l, metadata, now)))
        .onConflict((oc) => oc.column('email').doNothing())
        .returning('id')
        .execute();
      if (inserted.length === chunk.length) continue;
      const insertedIds = new Set(inserted.map((r) => r.id));
      for (const login of chunk.filter((l) => !insertedIds.has(l.id))) {
        for (let attempt = 1; ; attempt++) {
          if (attempt > MAX_EMAIL_ATTEMPTS) throw new Error('could not find an unused study email address');
          login.email = newEmail();
          const retry = await trx
            .insertInto('users')
            .values(userRow(login, metadata, now))
            .onConflict((oc) => oc.column('email').doNothing())
            .returning('id')
            .execute();
          if (retry.length === 1) break;
        }
      }
    }
    for (let start = 0; start < logins.length; start += INSERT_CHUNK) {
      await insertStudyLogins(
        trx,
        logins
          .slice(start, start + INSERT_CHUNK)
          .map((l) => ({ user_id: l.id, experiment_id: experimentId, batch_id: batchId, created_at: now })),
      );
    }
  });
  return logins.map(({ email, password }) => ({ email, password }));
}

function userRow(login: { id: string; email: string; passwordHash: string }, metadata: string, now: string) {
  return {
    id: login.id,
    email: login.email,
    password_hash: login.passwordHash,
    is_admin: false,
    metadata,
    created_at: now,
    updated_at: now,
    last_login_at: null,
  };
}
