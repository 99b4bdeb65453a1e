import type { DpopProofSettings } from '../auth-dependencies.js';
import { checkDpopProof, readDpopHeader, spendDpopProof, type DpopRequest } from './verify-dpop-proof.js';
import type { VerifiedDpopProof } from './verify-dpop-proof.js';
import { asSeedProofRefusal } from './dpop-challenge.js';

/**
 * The seed's login and refresh accept the token endpoint's `DPoP` header (RFC 9449 section 5): a proof for
 * `POST url`, verified here before anything else and spent (sessionProofSpent) only once the partner is
 * proven, so that a refused request cannot burn a partner's proof. No header: undefined. A bad proof is the
 * seed's 401 with `WWW-Authenticate: DPoP error="invalid_dpop_proof"` (or `"use_dpop_nonce"`), an
 * `error_description` naming its fault, and the proof's own reason.
 */
export async function readSessionProof(header: string | string[] | undefined, target: Omit<DpopRequest, 'method' | 'accessToken'>, settings: DpopProofSettings): Promise<VerifiedDpopProof | undefined> {
  return asSeedRefusal(async () => {
    const proof = readDpopHeader(header);
    return proof === undefined ? undefined : checkDpopProof(proof, { method: 'POST', ...target }, settings);
  });
}

/** Spends a session proof's jti (a replay is the seed's 401, reason dpop_proof_replayed). */
export async function spendSessionProof(proof: VerifiedDpopProof, settings: DpopProofSettings): Promise<void> {
  await asSeedRefusal(() => spendDpopProof(proof, settings));
}

async function asSeedRefusal<T>(run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    throw asSeedProofRefusal(error);
  }
}
