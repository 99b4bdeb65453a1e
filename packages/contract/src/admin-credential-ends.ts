import { Type, type Static } from 'typebox';
import { EndingCredential } from './webhook-events.js';

/** How far ahead GET /admin/v1/credential-ends looks at most, and how many ends one answer lists at most. */
export const MAX_CREDENTIAL_END_DAYS = 90;
export const MAX_CREDENTIAL_ENDS = 1000;

/**
 * GET /admin/v1/credential-ends query, as the query string carries it (decimals): how many days ahead to look
 * (default 30) and how many ends to list at most (default 200), the soonest first.
 *
 * @example
 * ```json
 * { "days": "7", "limit": "50" }
 * ```
 */
export const CredentialEndsQuery = Type.Object(
  {
    days: Type.Optional(Type.String({ pattern: '^([1-9]|[1-8][0-9]|90)$', description: `How many days ahead to look: 1 to ${MAX_CREDENTIAL_END_DAYS}, default 30` })),
    limit: Type.Optional(Type.String({ pattern: '^([1-9][0-9]{0,2}|1000)$', description: `How many ends to list at most, the soonest first: 1 to ${MAX_CREDENTIAL_ENDS}, default 200` })),
  },
  { title: 'CredentialEndsQuery', additionalProperties: false },
);
export type CredentialEndsQuery = Static<typeof CredentialEndsQuery>;

/** One partner credential that stops working by itself, and when. */
export const CredentialEnd = Type.Object(
  {
    partner: Type.String({ description: "The partner's login" }),
    credential: EndingCredential,
    id: Type.String({ description: "The key's kid, the certificate's x5t#S256 thumbprint, or `previous` for a replaced API password" }),
    endsAt: Type.String({ format: 'date-time' }),
  },
  { title: 'CredentialEnd' },
);
export type CredentialEnd = Static<typeof CredentialEnd>;

/**
 * GET /admin/v1/credential-ends answer: the ends, soonest first; `more` when the limit left some out.
 *
 * @example
 * ```json
 * { "ends": [{ "partner": "acme", "credential": "key", "id": "acme-2026", "endsAt": "2026-11-30T09:00:00.000Z" }], "more": false }
 * ```
 */
export const CredentialEndsResponse = Type.Object({ ends: Type.Array(CredentialEnd), more: Type.Boolean() }, { title: 'CredentialEndsResponse' });
export type CredentialEndsResponse = Static<typeof CredentialEndsResponse>;
