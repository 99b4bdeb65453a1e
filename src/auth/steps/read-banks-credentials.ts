import { BEARER_REGEXP } from '@partner-gateway/contract/patterns';
import type { BanksQuery } from '@partner-gateway/contract/public-api';
import { errors } from '../../errors.js';
import type { RequestContext } from '../../request-context.js';
import { isCompactJwe } from '../credentials/decrypt-partner-password.js';
import { invalidTokenHeader } from '../tokens/access-tokens.js';
import { requireParameters } from './require-parameters.js';

/** The credentials a banks request carries, after the 422 checks. */
export type BanksCredentials =
  | { scheme: 'bearer' | 'dpop'; token: string; partnerName?: string }
  | { scheme: 'password'; partnerName: string; jwe: string };

/** `Authorization: DPoP <token>` (RFC 9449 section 7.1), read like a bearer token. */
const DPOP_SCHEME_REGEXP = /^DPoP +(\S+) *$/i;

/**
 * The access token an `Authorization` header carries, and how: `Bearer`, or `DPoP` (a bound token, which comes
 * with the request's `DPoP` proof header). Undefined for anything else.
 *
 * @example
 * ```ts
 * readAccessToken('DPoP eyJ...'); // { scheme: 'dpop', token: 'eyJ...' }
 * ```
 */
export function readAccessToken(authorization: string): { scheme: 'bearer' | 'dpop'; token: string } | undefined {
  const bound = DPOP_SCHEME_REGEXP.exec(authorization)?.[1];
  if (bound) return { scheme: 'dpop', token: bound };
  const token = BEARER_REGEXP.exec(authorization)?.[1];
  return token ? { scheme: 'bearer', token } : undefined;
}

/**
 * Reads the credentials of a banks request. With an `Authorization` header the request is a token request
 * (`Bearer`, or `DPoP` with the request's `DPoP` proof header) and the query parameters are optional. Otherwise
 * the three query parameters are required, in order (partnerName, partnerPassword, useAuthByCert), `useAuthByCert`
 * must be `Y` (`N` means the password is not encrypted, which is refused) and partnerPassword must be a compact JWE.
 */
export function readBanksCredentials(query: BanksQuery, context: Pick<RequestContext, 'authorization'>): BanksCredentials {
  if (context.authorization !== undefined) {
    const presented = readAccessToken(context.authorization);
    if (!presented) throw errors.unauthorized('malformed_authorization', invalidTokenHeader);
    return query.partnerName ? { ...presented, partnerName: query.partnerName } : presented;
  }
  const { partnerName, partnerPassword, useAuthByCert } = requireParameters(query, ['partnerName', 'partnerPassword', 'useAuthByCert']);
  if (useAuthByCert === 'N') throw errors.notEncrypted();
  if (useAuthByCert !== 'Y') throw errors.parameterInvalid('useAuthByCert');
  if (!isCompactJwe(partnerPassword)) throw errors.notEncrypted();
  return { scheme: 'password', partnerName, jwe: partnerPassword };
}
