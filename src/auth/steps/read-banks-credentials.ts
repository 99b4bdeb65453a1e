import { BEARER_REGEXP } from '@partner-gateway/contract/patterns';
import { errors } from '../../errors.js';
import { invalidTokenHeader } from '../tokens/access-tokens.js';
import { isCompactJwe } from '../credentials/decrypt-partner-password.js';
import { requireParameters } from './require-parameters.js';

import type { BanksQuery } from '@partner-gateway/contract/public-api';

/** The credentials a banks request carries, after the 422 checks. */
export type BanksCredentials =
  | { scheme: 'bearer'; token: string; partnerName?: string; certificate?: string | undefined }
  | { scheme: 'dpop'; token: string; proof: string | string[] | undefined; partnerName?: string; certificate?: string | undefined }
  | { scheme: 'password'; partnerName: string; jwe: string };

/** `Authorization: DPoP <token>` (RFC 9449 section 7.1), read like a bearer token. */
const DPOP_SCHEME_REGEXP = /^DPoP +(\S+) *$/i;

/**
 * Reads the credentials of a banks request. With an `Authorization` header the request is a token request
 * (`Bearer`, or `DPoP` with the request's `DPoP` proof header) and the query parameters are optional. Otherwise the three query parameters are required, in order
 * (partnerName, partnerPassword, useAuthByCert), `useAuthByCert` must be `Y` (`N` means the password is not
 * encrypted, which is refused) and partnerPassword must be a compact JWE.
 */
export function readBanksCredentials(query: BanksQuery, authorization: string | undefined, dpop?: string | string[]): BanksCredentials {
  if (authorization !== undefined) {
    const bound = DPOP_SCHEME_REGEXP.exec(authorization);
    if (bound?.[1]) return { scheme: 'dpop', token: bound[1], proof: dpop, ...(query.partnerName ? { partnerName: query.partnerName } : {}) };
    const match = BEARER_REGEXP.exec(authorization);
    if (!match?.[1]) {
      throw errors.unauthorized('malformed_authorization', invalidTokenHeader);
    }
    return { scheme: 'bearer', token: match[1], ...(query.partnerName ? { partnerName: query.partnerName } : {}) };
  }
  const { partnerName, partnerPassword, useAuthByCert } = requireParameters(query, [
    'partnerName',
    'partnerPassword',
    'useAuthByCert',
  ]);
  if (useAuthByCert === 'N') throw errors.notEncrypted();
  if (useAuthByCert !== 'Y') throw errors.parameterInvalid('useAuthByCert');
  if (!isCompactJwe(partnerPassword)) throw errors.notEncrypted();
  return { scheme: 'password', partnerName, jwe: partnerPassword };
}
