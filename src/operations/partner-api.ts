import type { BanksQuery, JwksResponse, LoginRequest, RefreshRequest } from '@partner-gateway/contract/public-api';
import type { KeyStore } from '../keys/key-store.js';
import type { RequestContext } from '../request-context.js';
import type { PublishedBanks } from '../banks/bank-catalog.js';
import { listBanksForPartner, type BanksDependencies } from './list-banks-for-partner.js';
import { loginPartner, type Session, type SessionDependencies } from './login-partner.js';
import { logoutSession } from './logout-session.js';
import { refreshSession } from './refresh-session.js';

/**
 * The partner API's operations, as the HTTP routes call them: each takes the request's validated parts and the
 * request context (address, credentials, listener, audit notes), and returns what the route sends (or throws an
 * AppError from the catalogue).
 */
export interface PartnerApi {
  /** Login and API password for an access token and the first refresh token of a new family; DPoP-bound with a `DPoP` proof header. */
  login(body: LoginRequest, context: RequestContext): Promise<Session>;
  /** A refresh token spent for a new access token and refresh token (a bound family's refresh needs its key's proof). */
  refresh(body: RefreshRequest, context: RequestContext): Promise<Session>;
  /** Revokes the family of the context's token (a bound token with its proof or certificate). */
  logout(context: RequestContext): Promise<void>;
  /**
   * The serialized `{"banks": [...]}` body, its strong ETag and list version, for a partner authenticated by the
   * query's encrypted password or a token.
   */
  listBanks(query: BanksQuery, context: RequestContext): Promise<PublishedBanks>;
  /** The public keys: sig keys verify access tokens, enc keys encrypt partnerPassword. */
  jwks(): JwksResponse;
  /** The DPoP nonce an answer to a DPoP request carries (`DPoP-Nonce`, DPOP_NONCE=required), the same on every instance; else undefined. */
  dpopNonce(): string | undefined;
}

export type PartnerApiDependencies = SessionDependencies &
  BanksDependencies & {
    keys: Pick<KeyStore, 'jwks'>;
    /** The partner API's paths, which DPoP proofs name on the listener's public URL. */
    paths: { login: string; refresh: string; logout: string; banks: string };
  };

export function createPartnerApi(deps: PartnerApiDependencies): PartnerApi {
  return {
    login: (body, context) => loginPartner(body ?? {}, context, deps),
    refresh: (body, context) => refreshSession(body ?? {}, context, deps),
    logout: (context) => logoutSession(context, deps),
    listBanks: (query, context) => listBanksForPartner(query, context, deps),
    jwks: () => deps.keys.jwks() as JwksResponse,
    dpopNonce: () => deps.dpop.nonces?.current(),
  };
}
