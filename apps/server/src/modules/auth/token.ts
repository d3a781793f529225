import { SignJWT, jwtVerify } from 'jose';
import { TokenPayload } from '@studychat/contracts';

export interface VerifiedToken extends TokenPayload {
  sessionId: string;
}

const ISSUER = 'studychat';

export class TokenSigner {
  private readonly key: Uint8Array;
  constructor(secret: string) {
    this.key = new TextEncoder().encode(secret);
  }

  /** HS256 token carrying userId, email and isAdmin; `jti` names the session row that can revoke it. */
  sign(payload: TokenPayload, sessionId: string, issuedAt: Date, ttlSeconds: number): Promise<string> {
    const iat = Math.floor(issuedAt.getTime() / 1000);
    return new SignJWT({ ...payload })
      .setProtectedHeader({ alg: 'HS256' })
      .setIssuer(ISSUER)
      .setJti(sessionId)
      .setIssuedAt(iat)
      .setExpirationTime(iat + ttlSeconds)
      .sign(this.key);
  }

  /** Returns the payload of a valid, unexpired token, or null. */
  async verify(token: string, now: Date): Promise<VerifiedToken | null> {
    try {
      const { payload } = await jwtVerify(token, this.key, {
        algorithms: ['HS256'],
        issuer: ISSUER,
        currentDate: now,
      });
      const parsed = TokenPayload.safeParse(payload);
      if (!parsed.success || typeof payload.jti !== 'string') return null;
      return { ...parsed.data, sessionId: payload.jti };
    } catch {
      return null;
    }
  }
}
