import type { TokenRequestForm } from '@partner-gateway/contract/oauth';
import type { AccessTokens } from '../auth/tokens/access-tokens.js';
import { randomUUID } from 'node:crypto';
import { errors } from '../errors.js';
import type { ClientAuthenticationDependencies } from '../auth/credentials/authenticate-client.js';
import { checkDpopProof, readDpopHeader, spendDpopProof, type DpopProofSettings } from '../auth/binding/claim-dpop-proof.js';
import { authorizeOAuthClient, type OAuthRequestContext } from '../auth/steps/authorize-oauth-client.js';
import { certificateBinding } from '../auth/binding/certificate-binding.js';

export interface ClientTokenDependencies extends ClientAuthenticationDependencies {
  tokens: AccessTokens;
  dpop: DpopProofSettings;
  /** The token endpoint's public URL: a proof's `htu`. */
  tokenEndpoint: string;
}

/** A client-credentials token (the route maps it to OAuthTokenResponse). */
export interface ClientToken {
  accessToken: string;
  tokenType: 'Bearer' | 'DPoP';
  expiresIn: number;
  partnerLogin: string;
  /** The thumbprint of the client certificate the token is bound to (RFC 8705), when it is. */
  certificateThumbprint?: string;
}

/**
 * The token endpoint (RFC 6749 section 4.4): `grant_type=client_credentials` only; a DPoP proof, when sent,
 * checked first (400 `invalid_dpop_proof`), then the client (authorizeOAuthClient). A partner requiring bound
 * tokens without a proof is `invalid_request` (never a bearer token). The proof's jti is spent only once the
 * client is proven, so a refused client cannot burn a partner's proofs. Each token gets a family of its own
 * without refresh tokens, stored only once revoked (token-family-state.ts): logout, revocation, blocking and a
 * new password reach it as they reach a login's.
 */
export async function issueClientToken(form: TokenRequestForm, context: OAuthRequestContext, deps: ClientTokenDependencies): Promise<ClientToken> {
  if (!form.grant_type) throw errors.invalidRequest('grant_type is missing');
  if (form.grant_type !== 'client_credentials') throw errors.unsupportedGrantType();
  const header = readDpopHeader(context.dpop);
  const proof = header === undefined ? undefined : await checkDpopProof(header, { method: 'POST', url: deps.tokenEndpoint }, deps.dpop);
  const { partner, method } = await authorizeOAuthClient(form, context, deps);
  // RFC 8705 section 3: a client authenticated by its certificate gets a token bound to it (still a Bearer token).
  const x5t = certificateBinding(method, context.certificate);
  if (!proof && !x5t && partner.requireBoundTokens) throw errors.invalidRequest('a DPoP proof is required for this client', 'dpop_required');
  if (proof) await spendDpopProof(proof, deps.dpop);
  const issued = await deps.tokens.issue(partner, randomUUID(), { jkt: proof?.jkt, x5t }, true);
  return { accessToken: issued.accessToken, tokenType: proof ? 'DPoP' : 'Bearer', expiresIn: issued.expiresIn, partnerLogin: partner.login, ...(x5t ? { certificateThumbprint: x5t } : {}) };
}
