import { createSigner, createVerifier } from 'fast-jwt';
import { z } from 'zod';
import { TokenPayload, type Role } from '@studychat/contracts';

export interface VerifiedToken extends TokenPayload {
  role: Role;
  sessionId: string;
}

const ISSUER = 'studychat';
const Claims = TokenPayload.extend({ jti: z.string(), exp: z.number() });
type Claims = z.infer<typeof Claims>;

/** Verified tokens remembered per signer; past this many the oldest is forgotten (it is verified again). */
export const VERIFIED_TOKENS_MAX = 10_000;

/**
 * HS256 tokens carrying userId, email and isAdmin; `jti` names the session row that can revoke them.
 * fast-jwt verifies with node:crypto in ~9 µs where jose's WebCrypto path took ~115 µs, which capped
 * authenticated throughput (docs/decisions/0005-fast-jwt.md). Expiry is checked against the injected
 * clock, so tests move time instead of sleeping.
 */
export class TokenSigner {
  private readonly signer: (payload: Record<string, unknown>) => string;
  private readonly verifier: (token: string) => unknown;
  /**
   * Tokens whose signature and claims were checked, with their claims: a token's text fixes both, so a
   * token seen valid is not decoded, verified and parsed again on each request (docs/decisions/0060).
   * Its expiry is still checked on every call; revocation is the session check's (plugins/auth.ts).
   */
  private readonly verified = new Map<string, Claims>();

  constructor(secret: string) {
    this.signer = createSigner({ key: secret, algorithm: 'HS256', iss: ISSUER, noTimestamp: true });
    this.verifier = createVerifier({
      key: secret,
      algorithms: ['HS256'],
      allowedIss: ISSUER,
      ignoreExpiration: true,
      cache: false,
    });
  }

  sign(payload: TokenPayload, sessionId: string, issuedAt: Date, ttlSeconds: number): Promise<string> {
    const iat = Math.floor(issuedAt.getTime() / 1000);
    // noTimestamp: fast-jwt would stamp iat from the real clock; the session row records issue time.
    return Promise.resolve(this.signer({ ...payload, jti: sessionId, exp: iat + ttlSeconds }));
  }

  /** The payload of a valid, unexpired token, or null. */
  verify(token: string, now: Date): Promise<VerifiedToken | null> {
    const claims = this.verified.get(token) ?? this.check(token);
    if (!claims || claims.exp * 1000 <= now.getTime()) return Promise.resolve(null);
    const { userId, email, isAdmin, jti } = claims;
    // Tokens from before roles carry none: admin or participant, as isAdmin says.
    const role = isAdmin ? 'admin' : (claims.role ?? 'participant');
    return Promise.resolve({ userId, email, isAdmin, role, sessionId: jti });
  }

  /** The claims of a token signed with this secret by this issuer (remembered), or undefined. */
  private check(token: string): Claims | undefined {
    let decoded: unknown;
    try {
      decoded = this.verifier(token);
    } catch {
      return undefined;
    }
    const claims = Claims.safeParse(decoded);
    if (!claims.success) return undefined;
    if (this.verified.size >= VERIFIED_TOKENS_MAX) {
      const oldest = this.verified.keys().next();
      if (!oldest.done) this.verified.delete(oldest.value);
    }
    this.verified.set(token, claims.data);
    return claims.data;
  }
}
