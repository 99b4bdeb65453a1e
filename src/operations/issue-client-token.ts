import { randomUUID } from 'node:crypto';
import { GRANT_TYPES, type TokenRequestForm } from '@partner-gateway/contract/oauth';
import type { AuthDependencies } from '../auth/auth-dependencies.js';
import { checkDpopProof, listenerUrls, readDpopHeader, spendDpopProof } from '../auth/binding/verify-dpop-proof.js';
import { authorizeOAuthClient } from '../auth/steps/authorize-oauth-client.js';
import { SELF_SCOPE } from '../auth/tokens/access-tokens.js';
import { errors } from '../errors.js';
import type { RequestContext } from '../request-context.js';

export type ClientTokenDependencies = Pick<
  AuthDependencies,
  'partners' | 'guard' | 'passwords' | 'replay' | 'remoteJwks' | 'assertionAudiences' | 'trustedCas' | 'now' | 'tokens' | 'dpop'
> & {
  /** The token endpoint's path, which a DPoP proof's `htu` names on the listener's public URL. */
  paths: { token: string };
};

/** A client-credentials token (the route maps it to OAuthTokenResponse). */
export interface ClientToken {
  accessToken: string;
  tokenType: 'Bearer' | 'DPoP';
  expiresIn: number;
  partnerLogin: string;
  /** The thumbprint of the client certificate the token is bound to (RFC 8705), when it is. */
  certificateThumbprint?: string;
  /** `self` when the self-service API was asked for and granted. */
  scope?: typeof SELF_SCOPE;
}

/** The client authentication methods that prove a key or a certificate: those that may get scope `self`. */
const KEY_METHODS = new Set(['private_key_jwt', 'tls_client_auth', 'self_signed_tls_client_auth']);

/** Whether a space-separated scope names `self` (RFC 6749 section 3.3); other values are ignored, as they always were. */
function asksForSelf(scope: string | undefined): boolean {
  return scope !== undefined && scope.split(' ').includes(SELF_SCOPE);
}

/**
 * The token endpoint (RFC 6749 section 4.4): `grant_type=client_credentials` only; a DPoP proof, when sent,
 * checked first (400 `invalid_dpop_proof`), then the client (authorizeOAuthClient), then the scope: `self` only for
 * a client that proved a key or a certificate (400 `invalid_scope`). A partner requiring bound
 * tokens without a proof or a certificate binding is `invalid_request` (never a bearer token). The proof's jti is
 * spent only once the client is proven, so a refused client cannot burn a partner's proofs. A client that
 * authenticated by its certificate gets a token bound to it (RFC 8705 section 3, still a Bearer token). Each
 * token gets a family of its own without refresh tokens, stored only once revoked (token-family-state.ts):
 * logout, revocation, blocking and a new password reach it as they reach a login's. The audit entry learns the
 * method and whether the token is bound.
 *
 * @example
 * ```ts
 * const token = await issueClientToken({ grant_type: 'client_credentials', client_assertion_type, client_assertion }, context, deps);
 * ```
 */
export async function issueClientToken(form: TokenRequestForm, context: RequestContext, deps: ClientTokenDependencies): Promise<ClientToken> {
  if (!form.grant_type) throw errors.invalidRequest('grant_type is missing');
  // The form's schema already holds grant_type to GRANT_TYPES (refused as unsupported_grant_type): this is for callers without it.
  if (!(GRANT_TYPES as readonly string[]).includes(form.grant_type)) throw errors.unsupportedGrantType();
  const header = readDpopHeader(context.dpop);
  const proof = header === undefined ? undefined : await checkDpopProof(header, { method: 'POST', ...listenerUrls(context, deps.paths.token) }, deps.dpop);
  const { partner, method, certificateThumbprint: x5t } = await authorizeOAuthClient(form, context, deps);
  const self = asksForSelf(form.scope);
  // The self-service API changes credentials: only a client that proved a key or a certificate may get it, never a shared secret.
  if (self && !KEY_METHODS.has(method)) throw errors.invalidScope();
  if (!proof && !x5t && partner.requireBoundTokens) throw errors.invalidRequest('a DPoP proof is required for this client', 'dpop_required');
  if (proof) await spendDpopProof(proof, deps.dpop);
  const issued = await deps.tokens.issue(partner, { familyId: randomUUID(), jkt: proof?.jkt, x5t, accessOnly: true, self });
  context.audit.details = { ...context.audit.details, bound: proof !== undefined || x5t !== undefined, ...(self ? { scope: SELF_SCOPE } : {}) };
  return {
    accessToken: issued.accessToken,
    tokenType: proof ? 'DPoP' : 'Bearer',
    expiresIn: issued.expiresIn,
    partnerLogin: partner.login,
    ...(x5t ? { certificateThumbprint: x5t } : {}),
    ...(self ? { scope: SELF_SCOPE } : {}),
  };
}
