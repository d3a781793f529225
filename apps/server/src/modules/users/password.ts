import { createHmac, randomInt, timingSafeEqual } from 'node:crypto';
import { hash, verify } from '@node-rs/argon2';

// Two ways to store a password (docs/decisions/0018-study-password-hmac.md):
// - argon2id (the library's default algorithm and cost) for passwords people choose: admins, and any
//   account made with createUser;
// - HMAC-SHA-256 under a server-side pepper for generated study passwords: 16 random characters (about
//   93 bits) need no slow hash, and a stolen database alone (without the pepper) reveals nothing.
// Stored hashes say which they are, so both kinds (and every argon2 hash stored before) keep working.

const HMAC_PREFIX = 'hmac-sha256$';

/** argon2id with the library's recommended cost parameters. */
export function hashPassword(password: string): Promise<string> {
  return hash(password);
}

/** For generated, long random passwords only: HMAC-SHA-256 keyed with the server's pepper. */
export function hashGeneratedPassword(password: string, pepper: string): string {
  return HMAC_PREFIX + createHmac('sha256', pepper).update(password, 'utf8').digest('base64url');
}

/** True when checking this hash is slow (argon2) and should wait for a slot in the hashing queue. */
export function isSlowHash(passwordHash: string): boolean {
  return !passwordHash.startsWith(HMAC_PREFIX);
}

export async function verifyPassword(passwordHash: string, password: string, pepper: string): Promise<boolean> {
  if (passwordHash.startsWith(HMAC_PREFIX)) {
    const expected = Buffer.from(passwordHash, 'utf8');
    const actual = Buffer.from(hashGeneratedPassword(password, pepper), 'utf8');
    return expected.length === actual.length && timingSafeEqual(expected, actual);
  }
  try {
    return await verify(passwordHash, password);
  } catch {
    return false;
  }
}

// A hash of a random string, checked when the account does not exist, so that the response time does
// not reveal which emails are registered.
let decoyHash: Promise<string> | undefined;
export function decoyPasswordHash(): Promise<string> {
  decoyHash ??= hash(generatePassword());
  return decoyHash;
}

const ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz23456789';

/** A strong random password without look-alike characters (about 113 bits at 20 characters). */
export function generatePassword(length = 20): string {
  let out = '';
  for (let i = 0; i < length; i++) out += ALPHABET[randomInt(ALPHABET.length)];
  return out;
}
