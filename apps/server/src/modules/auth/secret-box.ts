import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';

// Secrets the server must read back (TOTP seeds) are stored encrypted with AES-256-GCM under a key
// derived from the server's pepper (never stored in the database), so a copy of the database alone does
// not give anyone an account's second factor.

const VERSION = 'v1';

function keyFor(pepper: string, purpose: string): Buffer {
  return Buffer.from(hkdfSync('sha256', pepper, 'studychat', purpose, 32));
}

export function sealSecret(plain: string, pepper: string, purpose: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', keyFor(pepper, purpose), iv);
  const data = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
  return [
    VERSION,
    iv.toString('base64url'),
    data.toString('base64url'),
    cipher.getAuthTag().toString('base64url'),
  ].join(':');
}

/** The plain secret, or null when the box is damaged or was sealed under another pepper. */
export function openSecret(sealed: string, pepper: string, purpose: string): string | null {
  const [version, iv, data, tag] = sealed.split(':');
  if (version !== VERSION || !iv || !data || !tag) return null;
  try {
    const decipher = createDecipheriv('aes-256-gcm', keyFor(pepper, purpose), Buffer.from(iv, 'base64url'));
    decipher.setAuthTag(Buffer.from(tag, 'base64url'));
    return Buffer.concat([decipher.update(Buffer.from(data, 'base64url')), decipher.final()]).toString('utf8');
  } catch {
    return null;
  }
}
