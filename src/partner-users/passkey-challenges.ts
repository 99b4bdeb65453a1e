import { createHmac, hkdfSync, randomBytes, timingSafeEqual } from 'node:crypto';

/** How long a WebAuthn challenge can be answered. */
export const CHALLENGE_TTL_MS = 5 * 60_000;

/**
 * WebAuthn challenges that need no storage until they are answered: each is the time it was given, 16 random
 * bytes and an HMAC of both and its purpose (a sign-in, or one invitation's registration) under a key derived from
 * MASTER_KEY, which every instance holds. Asking for one writes nothing, so a flood of unauthenticated requests
 * costs no rows; answering spends it (PortalRepository.spendChallenge), so it is answered once.
 *
 * @example
 * ```ts
 * const challenge = challenges.issue('sign-in');
 * challenges.expiry(challenge, 'sign-in'); // its end, or undefined when forged, for another purpose or expired
 * ```
 */
export interface PasskeyChallenges {
  issue(purpose: string): string;
  /** When `challenge` stops being answerable, if it is one of ours for `purpose` and still answerable now. */
  expiry(challenge: string, purpose: string): Date | undefined;
}

export function createPasskeyChallenges(masterKey: Uint8Array, now: () => number): PasskeyChallenges {
  const key = Buffer.from(hkdfSync('sha256', masterKey, Buffer.alloc(0), 'partner-gateway portal-challenge v1', 32));
  const mac = (purpose: string, body: Buffer) => createHmac('sha256', key).update(purpose).update('\0').update(body).digest();
  return {
    issue(purpose) {
      const body = Buffer.alloc(24);
      body.writeBigUInt64BE(BigInt(now()));
      randomBytes(16).copy(body, 8);
      return Buffer.concat([body, mac(purpose, body)]).toString('base64url');
    },
    expiry(challenge, purpose) {
      const bytes = Buffer.from(challenge, 'base64url');
      if (bytes.length !== 56 || bytes.toString('base64url') !== challenge) return undefined;
      const body = bytes.subarray(0, 24);
      if (!timingSafeEqual(bytes.subarray(24), mac(purpose, body))) return undefined;
      const issuedAt = Number(body.readBigUInt64BE());
      const at = now();
      return issuedAt <= at + 1000 && at < issuedAt + CHALLENGE_TTL_MS ? new Date(issuedAt + CHALLENGE_TTL_MS) : undefined;
    },
  };
}
