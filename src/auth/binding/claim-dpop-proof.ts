import { createHash } from 'node:crypto';
import { errors } from '../../errors.js';
import type { JtiReplayRepository } from '../../stores/replay/jti-replay-repository.js';
import { verifyDpopProof, type VerifiedDpopProof } from './verify-dpop-proof.js';

export interface DpopProofSettings {
  /** The replay store the encrypted passwords use, shared by every instance. */
  replay: Pick<JtiReplayRepository, 'claim'>;
  /** The JWE window's bounds (JWE_MAX_AGE, JWE_MAX_FUTURE), in seconds. */
  maxAgeSeconds: number;
  maxFutureSeconds: number;
  now: () => number;
}

/** What a proof must name: the method and the public URL (no query) of this request, and the token it comes with. */
export interface DpopRequest {
  method: string;
  url: string;
  accessToken?: string;
}

/**
 * Verifies a DPoP proof (verifyDpopProof) and spends its jti, once for every instance: the store key is the
 * SHA-256 of the jti under a prefix of its own, so a proof's jti can never collide with a JWE's or an
 * assertion's. A second use is `invalid_dpop_proof` with reason `dpop_proof_replayed`.
 *
 * @example
 * ```ts
 * const proof = await claimDpopProof(request.headers.dpop, { method: 'POST', url: tokenUrl }, settings);
 * await tokens.issue(partner, familyId, { jkt: proof.jkt });
 * ```
 */
export async function claimDpopProof(proof: string, request: DpopRequest, settings: DpopProofSettings): Promise<VerifiedDpopProof> {
  const verified = await verifyDpopProof(proof, { ...request, maxAgeSeconds: settings.maxAgeSeconds, maxFutureSeconds: settings.maxFutureSeconds, now: settings.now });
  await spendDpopProof(verified, settings);
  return verified;
}

/** Spends an already verified proof's jti (for callers that verify first and spend once other checks pass). */
export async function spendDpopProof(verified: VerifiedDpopProof, settings: Pick<DpopProofSettings, 'replay'>): Promise<void> {
  if (!(await settings.replay.claim(dpopReplayKey(verified.jti), verified.rememberUntil))) throw errors.invalidDpopProof('dpop_proof_replayed');
}

/** The replay-store key of a proof's jti. */
export function dpopReplayKey(jti: string): string {
  return `dpop:${createHash('sha256').update(jti).digest('base64url')}`;
}

/** Verifies a proof without spending it (see spendDpopProof). */
export function checkDpopProof(proof: string, request: DpopRequest, settings: Omit<DpopProofSettings, 'replay'>): Promise<VerifiedDpopProof> {
  return verifyDpopProof(proof, { ...request, maxAgeSeconds: settings.maxAgeSeconds, maxFutureSeconds: settings.maxFutureSeconds, now: settings.now });
}

/**
 * The `DPoP` header as sent: undefined when absent; refused when sent twice (RFC 9449 section 4.3: exactly one
 * proof), which Node hands over joined by a comma.
 */
export function readDpopHeader(header: string | string[] | undefined): string | undefined {
  if (header === undefined) return undefined;
  if (Array.isArray(header) || header.includes(',')) throw errors.invalidDpopProof('malformed_dpop_proof');
  return header.trim();
}
