import { PartnerApiError } from './partner-api-error.js';
import type { OAuthTokenResponse } from '@partner-gateway/contract/oauth';
import type { Bank, BankOptInField, BanksResponse, BankWithFields, TokenResponse } from '@partner-gateway/contract/public-api';

/**
 * An access token and when it stops being accepted.
 *
 * @example
 * ```ts
 * const { accessToken, expiresAt }: AccessToken = await client.login();
 * ```
 */
export interface AccessToken {
  /** The JWT: sent as `Authorization: Bearer <accessToken>`, or `DPoP <accessToken>` with a proof when bound. Treat it like the password. */
  accessToken: string;
  /** `DPoP` when the token is bound to the client's DPoP key (useless without it), else `Bearer`. */
  tokenType: 'Bearer' | 'DPoP';
  /** Lifetime in seconds, as the gateway gave it (`expires_in`). */
  expiresIn: number;
  /** The client's clock when the login, refresh or token request was sent, plus `expiresIn`. */
  expiresAt: Date;
}

/**
 * A refresh token and when it stops being accepted, by the client's clock. Held only inside the client:
 * never returned, logged or put in an error.
 *
 * @example
 * ```ts
 * const refresh: RefreshToken = { value: 'Qm9v...', expiresAt: Date.now() + 604_800_000 };
 * ```
 */
export interface RefreshToken {
  value: string;
  /** Milliseconds since the epoch: the client's clock when the request was sent plus `refresh_expires_in`. */
  expiresAt: number;
}

/**
 * What a login or refresh answer gives: the access token and, when the gateway sent one, the refresh token.
 *
 * @example
 * ```ts
 * const { token, refresh }: Session = readSession(body, startedAt, 'login');
 * ```
 */
export interface Session {
  token: AccessToken;
  refresh?: RefreshToken | undefined;
}

/**
 * The tokens of a login or refresh answer; `startedAt` (the client's clock when the request was sent) dates
 * both expiries conservatively. A missing or unreadable refresh token only means the next renewal logs in.
 *
 * @example
 * ```ts
 * const session = readSession({ access_token: 'eyJ...', token_type: 'bearer', expires_in: 900, refresh_token: 'Qm9v...', refresh_expires_in: 604800 }, Date.now(), 'login');
 * ```
 */
export function readSession(body: unknown, startedAt: number, operation: 'login' | 'refresh'): Session {
  const {
    access_token: accessToken,
    token_type: tokenType,
    expires_in: expiresIn,
    refresh_token: refreshToken,
    refresh_expires_in: refreshExpiresIn,
  } = (body ?? {}) as { [Field in keyof TokenResponse]?: unknown };
  if (typeof accessToken !== 'string' || !accessToken || typeof expiresIn !== 'number' || !(expiresIn > 0)) throw unexpected(operation);
  const token: AccessToken = { accessToken, tokenType: isDpop(tokenType) ? 'DPoP' : 'Bearer', expiresIn, expiresAt: new Date(startedAt + expiresIn * 1000) };
  if (typeof refreshToken !== 'string' || !refreshToken || typeof refreshExpiresIn !== 'number' || !(refreshExpiresIn > 0)) return { token };
  return { token, refresh: { value: refreshToken, expiresAt: startedAt + refreshExpiresIn * 1000 } };
}

/**
 * The access token of a token endpoint answer (client credentials: no refresh token, RFC 6749 section 4.4.3).
 * `token_type` is matched without regard to case (RFC 6749 section 5.1).
 *
 * @example
 * ```ts
 * const { token } = readOAuthToken({ access_token: 'eyJ...', token_type: 'DPoP', expires_in: 900 }, Date.now());
 * ```
 */
export function readOAuthToken(body: unknown, startedAt: number): Session {
  const { access_token: accessToken, token_type: tokenType, expires_in: expiresIn } = (body ?? {}) as { [Field in keyof OAuthTokenResponse]?: unknown };
  if (typeof accessToken !== 'string' || !accessToken || typeof expiresIn !== 'number' || !(expiresIn > 0)) throw unexpected('token');
  if (typeof tokenType !== 'string' || !/^(bearer|dpop)$/i.test(tokenType)) throw unexpected('token');
  return { token: { accessToken, tokenType: isDpop(tokenType) ? 'DPoP' : 'Bearer', expiresIn, expiresAt: new Date(startedAt + expiresIn * 1000) } };
}

const isDpop = (tokenType: unknown) => typeof tokenType === 'string' && tokenType.toLowerCase() === 'dpop';

/**
 * The banks of a banks answer, name and BIC only.
 *
 * @example
 * ```ts
 * const banks = readBanks({ banks: [{ name: 'Сбербанк', bic: '044525225' }] });
 * ```
 */
export function readBanks(body: unknown): Bank[] {
  const banks = (body as { [Field in keyof BanksResponse]?: unknown } | undefined)?.banks;
  if (!Array.isArray(banks)) throw unexpected('banks');
  return banks.map((bank: { [Field in keyof Bank]?: unknown }) => {
    if (typeof bank?.name !== 'string' || typeof bank.bic !== 'string') throw unexpected('banks');
    return { name: bank.name, bic: bank.bic };
  });
}

/** The banks answer to `?fields=`: each bank with the opt-in fields asked for (null when unknown for that bank). */
export function readBanksWithFields(body: unknown, fields: readonly BankOptInField[]): BankWithFields[] {
  const banks = readBanks(body);
  const raw = (body as { banks: Array<Record<string, unknown>> }).banks;
  return banks.map((bank, index) => {
    const withFields: BankWithFields = { ...bank };
    for (const field of fields) {
      const value = raw[index]?.[field];
      withFields[field] = typeof value === 'string' ? value : null;
    }
    return withFields;
  });
}

// A 2xx the client cannot use is the gateway's failure, not the caller's; retrying would not change it.
function unexpected(operation: 'login' | 'refresh' | 'banks' | 'token'): PartnerApiError {
  return new PartnerApiError({ kind: 'unavailable', status: 200, description: `The gateway's ${operation} answer has an unexpected shape`, operation });
}
