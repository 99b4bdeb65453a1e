import type { LoginRequest } from '@partner-gateway/contract/public-api';
import type { AuthDependencies } from '../auth/auth-dependencies.js';
import { readSessionProof, spendSessionProof } from '../auth/binding/read-session-proof.js';
import { listenerUrls } from '../auth/binding/verify-dpop-proof.js';
import { authenticateWithPassword } from '../auth/credentials/authenticate-with-password.js';
import { checkPartnerAccess } from '../auth/steps/check-partner-access.js';
import { requireParameters } from '../auth/steps/require-parameters.js';
import { startTokenFamily } from '../auth/tokens/refresh-tokens.js';
import { errors } from '../errors.js';
import type { RequestContext } from '../request-context.js';

export type SessionDependencies = Pick<AuthDependencies, 'partners' | 'guard' | 'passwords' | 'tokens' | 'families' | 'refreshTtlSeconds' | 'now' | 'dpop'> & {
  /** The login and refresh paths, which a DPoP proof's `htu` names on the listener's public URL. */
  paths: { login: string; refresh: string };
};

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
 *
 * @example
 * ```ts
 * const session = await loginPartner({ login: 'acme', password }, context, deps);
 * ```
 */
export async function loginPartner(input: Partial<LoginRequest>, context: RequestContext, deps: SessionDependencies): Promise<Session> {
  const { login, password } = requireParameters(input, ['login', 'password']);
  const proof = await readSessionProof(context.dpop, listenerUrls(context, deps.paths.login), deps.dpop);
  const partner = await authenticateWithPassword(login, password, context.clientAddress, deps);
  checkPartnerAccess(partner, context.clientAddress);
  if (!proof && partner.requireBoundTokens) throw errors.unauthorized('dpop_required');
  if (proof) await spendSessionProof(proof, deps.dpop);
  await deps.guard.succeeded(context.clientAddress, partner);
  const refresh = await startTokenFamily(partner, deps.families, deps.refreshTtlSeconds, deps.now(), proof?.jkt);
  const access = await deps.tokens.issue(partner, { familyId: refresh.familyId, jkt: proof?.jkt });
  return {
    ...access,
    refreshToken: refresh.refreshToken,
    refreshExpiresIn: refresh.refreshExpiresIn,
    partnerLogin: partner.login,
    tokenType: proof ? 'DPoP' : 'bearer',
  };
}
