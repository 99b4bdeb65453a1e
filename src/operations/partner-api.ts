import type { BanksQuery, JwksResponse, LoginRequest, RefreshRequest } from '@partner-gateway/contract/public-api';
import type { AuthenticationDependencies } from '../auth/steps/authenticate-partner.js';
import { readBanksCredentials, type BanksCredentials } from '../auth/steps/read-banks-credentials.js';
import type { BankCatalog } from '../banks/cached-bank-repository.js';
import type { KeyStore } from '../keys/key-store.js';
import type { DpopProofSettings } from '../auth/binding/claim-dpop-proof.js';
import { listBanksForPartner } from './list-banks-for-partner.js';
import { loginPartner, type LoginDependencies, type Session } from './login-partner.js';
import { logoutSession } from './logout-session.js';
import { refreshSession } from './refresh-session.js';

/**
 * The partner API's operations, as the HTTP routes call them: each takes the request's validated parts and
 * the client's address, and returns what the route sends (or throws an AppError from the catalogue).
 */
export interface PartnerApi {
  /** Login and API password for an access token and the first refresh token of a new family; DPoP-bound with a `DPoP` proof header. */
  login(body: LoginRequest, clientAddress: string, dpop?: string | string[]): Promise<Session>;
  /** A refresh token spent for a new access token and refresh token (a bound family's refresh needs its key's proof). */
  refresh(body: RefreshRequest, clientAddress: string, dpop?: string | string[], onAuthenticated?: (login: string) => void): Promise<Session>;
  /** Revokes the token's family (a bound token with its proof); returns the partner's login. */
  logout(authorization: string | undefined, dpop?: string | string[], certificate?: string): Promise<string>;
  /**
   * The serialized `{"banks": [...]}` body for a partner authenticated by the query's encrypted password or a
   * bearer token; `onAuthenticated` learns who proved their identity, even if a later check refuses them.
   */
  listBanks(
    query: BanksQuery,
    authorization: string | undefined,
    clientAddress: string,
    onAuthenticated: (login: string) => void,
    dpop?: string | string[],
    /** The thumbprint of the connection's client certificate: a certificate-bound token needs the same one. */
    certificate?: string,
  ): Promise<string>;
  /** The public keys: sig keys verify access tokens, enc keys encrypt partnerPassword. */
  jwks(): JwksResponse;
}

export type PartnerApiDependencies = LoginDependencies &
  AuthenticationDependencies & {
    banks: Pick<BankCatalog, 'publicJson'>;
    keys: Pick<KeyStore, 'jwks'>;
    /** DPoP proofs' window and replay store. */
    dpop: DpopProofSettings;
    /** The public URLs a DPoP proof's `htu` must name. */
    urls: PartnerApiUrls;
  };

/** The public URL of each partner API operation (PUBLIC_URL + path), as DPoP proofs name them. */
export interface PartnerApiUrls {
  login: string;
  refresh: string;
  logout: string;
  banks: string;
}

export function createPartnerApi(deps: PartnerApiDependencies): PartnerApi {
  return {
    login: (body, clientAddress, dpop) => loginPartner(body ?? {}, clientAddress, dpop, deps),
    refresh: (body, clientAddress, dpop, onAuthenticated) => refreshSession(body ?? {}, clientAddress, dpop, deps, onAuthenticated),
    logout: (authorization, dpop, certificate) => logoutSession(authorization, dpop, deps, certificate),
    listBanks: (query, authorization, clientAddress, onAuthenticated, dpop, certificate) =>
      listBanksForPartner(withCertificate(readBanksCredentials(query, authorization, dpop), certificate), clientAddress, deps, onAuthenticated),
    jwks: () => deps.keys.jwks() as JwksResponse,
  };
}

/** A token's credentials carry the connection's certificate (RFC 8705 binding); an encrypted password has no use for it. */
function withCertificate(credentials: BanksCredentials, certificate: string | undefined): BanksCredentials {
  return credentials.scheme === 'password' || certificate === undefined ? credentials : { ...credentials, certificate };
}
