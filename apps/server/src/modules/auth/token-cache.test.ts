import type * as FastJwt from 'fast-jwt';
import { describe, expect, it, vi } from 'vitest';

// The signer remembers tokens it verified (docs/decisions/0060): counted here by wrapping fast-jwt's verifier.
const verifications = vi.hoisted(() => ({ count: 0 }));
vi.mock('fast-jwt', async (importOriginal) => {
  const original = await importOriginal<typeof FastJwt>();
  return {
    ...original,
    createVerifier: (options: Parameters<typeof original.createVerifier>[0]) => {
      const verify = original.createVerifier(options) as (token: string) => unknown;
      return (token: string) => {
        verifications.count += 1;
        return verify(token);
      };
    },
  };
});
const { TokenSigner, VERIFIED_TOKENS_MAX } = await import('./token.js');

const SECRET = 'a-test-secret-that-is-long-enough-0123456789';
const payload = { userId: '0b6f9a4e-7a51-4d3c-9a8e-2f1c7b1d9e10', email: 'p@study.org', isAdmin: false };
const now = new Date('2026-11-20T10:00:00Z');

describe('TokenSigner: verified tokens are remembered', () => {
  it('verifies a token once, and still refuses it once it has expired', async () => {
    const signer = new TokenSigner(SECRET);
    const token = await signer.sign(payload, 'session-1', now, 60);
    verifications.count = 0;
    for (let i = 0; i < 3; i++) expect(await signer.verify(token, now)).toMatchObject({ sessionId: 'session-1' });
    expect(verifications.count).toBe(1);
    expect(await signer.verify(token, new Date(now.getTime() + 60_000))).toBeNull();
  });

  it('never remembers a refused token: a changed signature is checked, and refused, each time', async () => {
    const signer = new TokenSigner(SECRET);
    const token = await signer.sign(payload, 's', now, 60);
    expect(await signer.verify(token, now)).not.toBeNull();
    // A character inside the signature (the last one also carries padding bits that decode the same).
    const at = token.length - 10;
    const tampered = token.slice(0, at) + (token[at] === 'A' ? 'B' : 'A') + token.slice(at + 1);
    verifications.count = 0;
    expect(await signer.verify(tampered, now)).toBeNull();
    expect(await signer.verify(tampered, now)).toBeNull();
    expect(verifications.count).toBe(2);
  });

  it('remembers per signer: a token of another secret is not valid here after the other signer verified it', async () => {
    const other = new TokenSigner('another-secret-that-is-long-enough-98765');
    const token = await other.sign(payload, 's', now, 60);
    expect(await other.verify(token, now)).not.toBeNull();
    expect(await new TokenSigner(SECRET).verify(token, now)).toBeNull();
  });

  it(`forgets the oldest past ${VERIFIED_TOKENS_MAX} tokens, which is then verified again`, async () => {
    const signer = new TokenSigner(SECRET);
    const first = await signer.sign(payload, 'first', now, 60);
    await signer.verify(first, now);
    for (let i = 0; i < VERIFIED_TOKENS_MAX; i++)
      await signer.verify(await signer.sign(payload, `s${i}`, now, 60), now);
    verifications.count = 0;
    expect(await signer.verify(first, now)).toMatchObject({ sessionId: 'first' });
    expect(verifications.count).toBe(1);
  });
});
