import { PartnerApiError } from './partner-api-error.js';
import type { Bank } from './partner-client-options.js';
import type { AccessToken } from './token-manager.js';

/**
 * The access token of a login answer; `startedAt` (the client's clock when the login was sent) dates the
 * expiry conservatively.
 *
 * @example
 * ```ts
 * const token = readToken({ access_token: 'eyJ...', token_type: 'bearer', expires_in: 900 }, Date.now());
 * ```
 */
export function readToken(body: unknown, startedAt: number): AccessToken {
  const { access_token: accessToken, expires_in: expiresIn } = (body ?? {}) as { access_token?: unknown; expires_in?: unknown };
  if (typeof accessToken !== 'string' || !accessToken || typeof expiresIn !== 'number' || !(expiresIn > 0)) throw unexpected('login');
  return { accessToken, expiresIn, expiresAt: new Date(startedAt + expiresIn * 1000) };
}

/**
 * The banks of a banks answer, name and BIC only.
 *
 * @example
 * ```ts
 * const banks = readBanks({ banks: [{ name: 'Сбербанк', bic: '044525225' }] });
 * ```
 */
export function readBanks(body: unknown): Bank[] {
  const banks = (body as { banks?: unknown } | undefined)?.banks;
  if (!Array.isArray(banks)) throw unexpected('banks');
  return banks.map((bank: { name?: unknown; bic?: unknown }) => {
    if (typeof bank?.name !== 'string' || typeof bank.bic !== 'string') throw unexpected('banks');
    return { name: bank.name, bic: bank.bic };
  });
}

// A 2xx the client cannot use is the gateway's failure, not the caller's; retrying would not change it.
function unexpected(operation: 'login' | 'banks'): PartnerApiError {
  return new PartnerApiError({ kind: 'unavailable', status: 200, description: `The gateway's ${operation} answer has an unexpected shape`, operation });
}
