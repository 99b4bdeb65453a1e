import type { PartnerRepository } from '../partners/partner-repository.js';
import type { PasswordVerifier } from '../partners/password-verifier.js';
import type { BruteForceGuard } from '../auth/steps/brute-force-guard.js';
import type { AccessTokens } from '../auth/tokens/access-tokens.js';
import { authenticateWithPassword } from '../auth/credentials/authenticate-with-password.js';
import { checkIpAllowed } from '../auth/steps/check-ip-allowed.js';
import { checkPartnerActive } from '../auth/steps/check-partner-active.js';
import { startTokenFamily } from '../auth/tokens/refresh-tokens.js';
import { requireParameters } from '../auth/steps/require-parameters.js';
import type { TokenFamilyRepository } from '../auth/tokens/token-family-repository.js';
import { readSessionProof, spendSessionProof } from '../auth/binding/read-session-proof.js';
import type { DpopProofSettings } from '../auth/binding/claim-dpop-proof.js';
import { errors } from '../errors.js';

export interface LoginInput {
  login?: unknown;
  password?: unknown;
}

export interface LoginDependencies {
  partners: PartnerRepository;
  guard: BruteForceGuard;
  passwords: PasswordVerifier;
  tokens: AccessTokens;
  families: TokenFamilyRepository;
  refreshTtlSeconds: number;
  now: () => number;
  dpop: DpopProofSettings;
  /** The login and refresh URLs a DPoP proof's `htu` must name. */
  urls: { login: string; refresh: string };
}

/** What login and refresh answer: an access token and the refresh token that renews it. */
export interface Session {
  accessToken: string;
  expiresIn: number;
  refreshToken: string;
  refreshExpiresIn: number;
  partnerLogin: string;
  /** `DPoP` when the access token is bound to the proof's key (`cnf.jkt`), else `bearer` (the seed's value). */
  tokenType: 'bearer' | 'DPoP';
}

/**
 * The login operation: 422 for a missing login or password, 401 for a bad DPoP proof, 401 for an unknown
 * login, a wrong password or a key-only partner's password (equal cost), then, only once the password is
 * proven, 403 for a blocked partner or a foreign address, and 401 (dpop_required) for a partner required to
 * use bound tokens that sent no proof. With a proof, the token and the family are bound to its key. Each login
 * starts a new token family.
 */
export async function loginPartner(input: LoginInput, clientAddress: string, dpop: string | string[] | undefined, deps: LoginDependencies): Promise<Session> {
  const { login, password } = requireParameters(input, ['login', 'password']);
  const proof = await readSessionProof(dpop, deps.urls.login, deps.dpop);
  const partner = await authenticateWithPassword(login, password, clientAddress, deps);
  checkPartnerActive(partner);
  checkIpAllowed(partner, clientAddress);
  if (!proof && partner.requireBoundTokens) throw errors.unauthorized('dpop_required');
  if (proof) await spendSessionProof(proof, deps.dpop);
  await deps.guard.succeeded(clientAddress, partner);
  const refresh = await startTokenFamily(partner, deps.families, deps.refreshTtlSeconds, deps.now(), proof?.jkt);
  const access = await deps.tokens.issue(partner, refresh.familyId, proof ? { jkt: proof.jkt } : undefined);
  return {
    ...access,
    refreshToken: refresh.refreshToken,
    refreshExpiresIn: refresh.refreshExpiresIn,
    partnerLogin: partner.login,
    tokenType: proof ? 'DPoP' : 'bearer',
  };
}
