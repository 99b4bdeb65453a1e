import { Type, type Static } from 'typebox';
import { PartnerKeyView } from './admin-partner-keys.js';
import { IpAllowlist, PartnerView } from './admin-partners.js';
import { PARTNER_CALL_ACTIONS, SELF_SERVICE_ACTIONS } from './audit-names.js';

/**
 * The self-service API's wire shapes (`/api/v1/self/…`): what a partner's own automation reads and changes about
 * itself with a client-credentials token of scope `self`. Every answer is the calling partner's alone.
 */

/** How long the request log and the usage reach back. */
export const SELF_HISTORY_DAYS = 30;
/** A rotation's overlap window: the default, and the longest a partner may choose. */
export const DEFAULT_OVERLAP_SECONDS = 24 * 3600;
export const MAX_OVERLAP_SECONDS = 30 * 24 * 3600;
/** How long before a credential ends it is counted as ending (`partner_gateway_partner_credentials_ending`) and announced (`credential.expiring`). */
export const KEY_END_WARNING_DAYS = 7;
/** Entries a page of the request log holds at most. */
export const MAX_SELF_CALLS = 200;

/**
 * A rotation's `overlapSeconds` member (default 24 hours, at most 30 days, 0 ending the old credential at once):
 * one schema for every credential a partner rotates, `description` naming which one keeps working.
 */
export const OverlapSeconds = (description: string) =>
  Type.Optional(Type.Integer({ minimum: 0, maximum: MAX_OVERLAP_SECONDS, default: DEFAULT_OVERLAP_SECONDS, description }));

/**
 * A rotation's `endSessions` member: whether every token of the partner issued before the rotation stops working
 * (the old credential leaked); by default none does, and the clients keep their tokens.
 */
export const EndSessions = () =>
  Type.Optional(
    Type.Boolean({
      default: false,
      description: 'End every access and refresh token issued to you before this rotation (a leaked credential): your clients must take new ones. Default false: no token ends',
    }),
  );

/** The actions the request log shows: the partner API's calls and the self-service API's own. */
export const SELF_LOG_ACTIONS = [...PARTNER_CALL_ACTIONS, ...SELF_SERVICE_ACTIONS] as const;

/**
 * GET /api/v1/self/keys answer: the keys the partner's client assertions may be signed with, each with the time it
 * stops being accepted when a rotation set one.
 *
 * @example
 * ```json
 * { "keys": [{ "kid": "acme-2026", "kty": "EC", "crv": "P-256", "alg": "ES256", "thumbprint": "…", "expiresAt": "2026-12-01T10:00:00.000Z" }] }
 * ```
 */
export const SelfKeysResponse = Type.Object({ keys: Type.Array(PartnerKeyView) }, { title: 'SelfKeysResponse' });
export type SelfKeysResponse = Static<typeof SelfKeysResponse>;

/**
 * POST /api/v1/self/keys body: a new public key, and how long the keys registered so far keep working beside it.
 * Once `overlapSeconds` have passed, the older keys stop by themselves; no session ends at the rotation.
 *
 * @example
 * ```json
 * { "key": { "kty": "EC", "crv": "P-256", "kid": "acme-2027", "x": "…", "y": "…" }, "overlapSeconds": 3600 }
 * ```
 */
export const RotateKeyRequest = Type.Object(
  {
    key: Type.Object({}, { additionalProperties: true, description: 'The new public JWK: EC P-256 (ES256), Ed25519 (EdDSA) or RSA of at least 2048 bits (PS256); public members only' }),
    overlapSeconds: OverlapSeconds('How long the keys registered so far stay accepted (default 24 hours, at most 30 days; 0 retires them at once)'),
    endSessions: EndSessions(),
  },
  { title: 'RotateKeyRequest', additionalProperties: false },
);
export type RotateKeyRequest = Static<typeof RotateKeyRequest>;

/** POST /api/v1/self/keys answer: the keys as they now are (the older ones with their `expiresAt`). */
export const RotateKeyResponse = Type.Object(
  {
    keys: Type.Array(PartnerKeyView),
    /** The kid of the key just added. */
    added: Type.String(),
  },
  { title: 'RotateKeyResponse' },
);
export type RotateKeyResponse = Static<typeof RotateKeyResponse>;

/**
 * GET /api/v1/self/calls query: the partner's own calls of the last 30 days, newest first; `requestId` finds one
 * call by the `X-Request-Id` it was answered with.
 *
 * @example
 * ```
 * GET /api/v1/self/calls?requestId=5f0c…&limit=20
 * ```
 */
export const SelfCallsQuery = Type.Object(
  {
    requestId: Type.Optional(Type.String({ minLength: 1, maxLength: 128, description: 'The X-Request-Id a call was answered with' })),
    from: Type.Optional(Type.String({ format: 'date-time', description: 'Calls at or after this time (at most 30 days ago)' })),
    to: Type.Optional(Type.String({ format: 'date-time', description: 'Calls before this time' })),
    outcome: Type.Optional(Type.Union([Type.Literal('success'), Type.Literal('failure')])),
    before: Type.Optional(Type.String({ pattern: '^[0-9]{1,19}$', description: 'The next page: the `next` of the previous answer' })),
    // A query string is text (the public API coerces nothing): 1 to 200, written as digits.
    limit: Type.Optional(Type.String({ pattern: '^([1-9][0-9]?|1[0-9]{2}|200)$', description: `Calls per page, 1 to ${MAX_SELF_CALLS} (default 50)` })),
  },
  { title: 'SelfCallsQuery', additionalProperties: false },
);
export type SelfCallsQuery = Static<typeof SelfCallsQuery>;

/** One of the partner's calls as its request log shows it. */
export const SelfCall = Type.Object(
  {
    at: Type.String({ format: 'date-time' }),
    operation: Type.Enum(SELF_LOG_ACTIONS),
    outcome: Type.Union([Type.Literal('success'), Type.Literal('failure')]),
    status: Type.Union([Type.Integer(), Type.Null()]),
    /** Why a call was refused, as a code (wrong_password, ip_not_allowed, …); null for a success. */
    reason: Type.Union([Type.String(), Type.Null()]),
    /** The refusal in words, saying what to change; null for a success. */
    explanation: Type.Union([Type.String(), Type.Null()]),
    requestId: Type.Union([Type.String(), Type.Null()]),
    clientAddress: Type.Union([Type.String(), Type.Null()]),
    /** Successful bearer calls alike within one second share an entry: how many calls it stands for. */
    count: Type.Integer({ minimum: 1 }),
  },
  { title: 'SelfCall' },
);
export type SelfCall = Static<typeof SelfCall>;

export const SelfCallsResponse = Type.Object(
  {
    calls: Type.Array(SelfCall),
    /** Send as `before` for the next (older) page; null on the last page. */
    next: Type.Union([Type.String(), Type.Null()]),
  },
  { title: 'SelfCallsResponse' },
);
export type SelfCallsResponse = Static<typeof SelfCallsResponse>;

/**
 * GET /api/v1/self/usage answer: the partner's calls per UTC day, operation and outcome over the last 30 days
 * (days without calls are absent).
 *
 * @example
 * ```json
 * { "days": 30, "usage": [{ "day": "2026-11-28", "operation": "banks", "outcome": "success", "calls": 1520 }] }
 * ```
 */
export const SelfUsageResponse = Type.Object(
  {
    days: Type.Integer(),
    usage: Type.Array(
      Type.Object({
        day: Type.String({ format: 'date' }),
        operation: Type.Enum(SELF_LOG_ACTIONS),
        outcome: Type.Union([Type.Literal('success'), Type.Literal('failure')]),
        calls: Type.Integer({ minimum: 0 }),
      }),
    ),
  },
  { title: 'SelfUsageResponse' },
);
export type SelfUsageResponse = Static<typeof SelfUsageResponse>;

/**
 * The endpoint a self-service webhook operation names (`/api/v1/self/webhooks/{id}/…`): one of the calling partner's
 * own; another partner's id answers exactly as an unknown one (404 `webhook_not_found`).
 */
export const SelfWebhookParams = Type.Object({ id: Type.String({ format: 'uuid' }) }, { additionalProperties: false, title: 'SelfWebhookParams' });
export type SelfWebhookParams = Static<typeof SelfWebhookParams>;

/**
 * GET /api/v1/self/settings answer: the partner's settings as operators set them, read-only but for the allowlist
 * when `selfManagedAllowlist` is true.
 *
 * @example
 * ```json
 * { "login": "acme", "status": "active", "ipAllowlist": ["203.0.113.0/24"], "rewardTypes": ["sbp"],
 *   "authMethods": ["private_key_jwt"], "requireSenderConstrainedTokens": true, "selfManagedAllowlist": false }
 * ```
 */
export const SelfSettings = Type.Pick(PartnerView, ['login', 'status', 'ipAllowlist', 'rewardTypes', 'authMethods', 'requireSenderConstrainedTokens', 'selfManagedAllowlist'], {
  title: 'SelfSettings',
  additionalProperties: false,
});
export type SelfSettings = Static<typeof SelfSettings>;

/**
 * PUT /api/v1/self/allowlist body: the partner's whole new IP allowlist (allowed only when an operator turned on
 * `selfManagedAllowlist`). It must include the address the request comes from.
 *
 * @example
 * ```json
 * { "ipAllowlist": ["203.0.113.0/24", "2001:db8::/48"] }
 * ```
 */
export const SetAllowlistRequest = Type.Object({ ipAllowlist: IpAllowlist }, { title: 'SetAllowlistRequest', additionalProperties: false });
export type SetAllowlistRequest = Static<typeof SetAllowlistRequest>;

/**
 * POST /api/v1/self/password body: how long the current API password keeps working beside the new one the gateway
 * makes (default 24 hours, at most 30 days; 0 ends it at once).
 *
 * @example
 * ```json
 * { "overlapSeconds": 3600 }
 * ```
 */
export const RotatePasswordRequest = Type.Object(
  {
    overlapSeconds: OverlapSeconds('How long the current password stays accepted (default 24 hours, at most 30 days)'),
    endSessions: EndSessions(),
  },
  { title: 'RotatePasswordRequest', additionalProperties: false },
);
export type RotatePasswordRequest = Static<typeof RotatePasswordRequest>;

/**
 * POST /api/v1/self/password answer: the new API password, shown this once (the gateway keeps only its argon2id
 * hash), and until when the previous one is still accepted.
 *
 * @example
 * ```json
 * { "password": "pgw_4bW…", "previousPasswordUntil": "2026-11-29T10:00:00.000Z" }
 * ```
 */
export const RotatePasswordResponse = Type.Object(
  {
    password: Type.String({ description: 'The new API password: store it now, it is never shown again' }),
    previousPasswordUntil: Type.Union([Type.String({ format: 'date-time' }), Type.Null()], { description: 'Until when the previous password is accepted; null when it ended at once' }),
  },
  { title: 'RotatePasswordResponse' },
);
export type RotatePasswordResponse = Static<typeof RotatePasswordResponse>;
