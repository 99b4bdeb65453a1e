import { Type, type Static } from 'typebox';

/** The admin API's shapes for a partner's webhook endpoints (issue 34). */

/** `v1a`: ed25519 (the default; the partner verifies with a public key). `v1`: HMAC-SHA256 with a shared `whsec_` secret. */
export const WebhookScheme = Type.Union([Type.Literal('v1a'), Type.Literal('v1')], { title: 'WebhookScheme' });
export type WebhookScheme = Static<typeof WebhookScheme>;

/**
 * POST /admin/v1/partners/{login}/webhooks body.
 *
 * @example
 * ```json
 * { "url": "https://partner.example/hooks/banks", "scheme": "v1a" }
 * ```
 */
export const CreateWebhookBody = Type.Object(
  {
    url: Type.String({ minLength: 1, maxLength: 2048, description: 'Where events are POSTed: https, never a private address (plain http to loopback outside production only)' }),
    scheme: Type.Optional(WebhookScheme),
  },
  { additionalProperties: false, title: 'CreateWebhookBody' },
);
export type CreateWebhookBody = Static<typeof CreateWebhookBody>;

/** POST /admin/v1/partners/{login}/webhooks/{id}/rotate body: the new material's scheme (default: the current one) and how long the old one still signs. */
export const RotateWebhookBody = Type.Object(
  {
    scheme: Type.Optional(WebhookScheme),
    overlapHours: Type.Optional(Type.Integer({ minimum: 0, maximum: 168, description: 'Hours the previous material still signs beside the new one (default 24)' })),
  },
  { additionalProperties: false, title: 'RotateWebhookBody' },
);
export type RotateWebhookBody = Static<typeof RotateWebhookBody>;

export const WebhookEndpointView = Type.Object(
  {
    id: Type.String({ format: 'uuid' }),
    url: Type.String(),
    scheme: WebhookScheme,
    /** For `v1a`: the public key partners verify with (`whpk_` + base64 of the raw 32 bytes); null for `v1`. */
    publicKey: Type.Union([Type.String(), Type.Null()]),
    status: Type.Union([Type.Literal('enabled'), Type.Literal('disabled')]),
    /** Until when the material before the last rotation still signs too (null: no overlap). */
    previousUntil: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
    failingSince: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
    disabledAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
    disabledReason: Type.Union([Type.String(), Type.Null()]),
    createdAt: Type.String({ format: 'date-time' }),
  },
  { additionalProperties: false, title: 'WebhookEndpointView' },
);
export type WebhookEndpointView = Static<typeof WebhookEndpointView>;

export const WebhookEndpointList = Type.Object({ endpoints: Type.Array(WebhookEndpointView) }, { additionalProperties: false, title: 'WebhookEndpointList' });
export type WebhookEndpointList = Static<typeof WebhookEndpointList>;

/**
 * An endpoint as created or rotated, with its new signing material, shown this once: for `v1` the `whsec_`
 * secret, for `v1a` the public key (the private key never leaves the gateway, so `secret` is null).
 */
export const WebhookEndpointCreated = Type.Object(
  {
    endpoint: WebhookEndpointView,
    secret: Type.Union([Type.String({ description: 'whsec_<base64>: the HMAC secret, shown once' }), Type.Null()]),
  },
  { additionalProperties: false, title: 'WebhookEndpointCreated' },
);
export type WebhookEndpointCreated = Static<typeof WebhookEndpointCreated>;

export const WebhookEndpointParams = Type.Object(
  { login: Type.String({ minLength: 1, maxLength: 64 }), id: Type.String({ format: 'uuid' }) },
  { additionalProperties: false, title: 'WebhookEndpointParams' },
);
export type WebhookEndpointParams = Static<typeof WebhookEndpointParams>;

/** One attempt to deliver an event (the delivery log). */
export const WebhookAttemptView = Type.Object(
  {
    eventId: Type.String(),
    deliveryId: Type.String({ format: 'uuid' }),
    at: Type.String({ format: 'date-time' }),
    outcome: Type.Union([Type.Literal('delivered'), Type.Literal('failed')]),
    statusCode: Type.Union([Type.Integer(), Type.Null()]),
    error: Type.Union([Type.String(), Type.Null()]),
    durationMs: Type.Integer(),
  },
  { additionalProperties: false, title: 'WebhookAttemptView' },
);
export type WebhookAttemptView = Static<typeof WebhookAttemptView>;

export const WebhookAttemptList = Type.Object({ attempts: Type.Array(WebhookAttemptView) }, { additionalProperties: false, title: 'WebhookAttemptList' });
export type WebhookAttemptList = Static<typeof WebhookAttemptList>;

export const WebhookAttemptQuery = Type.Object(
  // A query string is text (the admin API does not coerce): digits, 1 to 500.
  { limit: Type.Optional(Type.String({ pattern: '^([1-9][0-9]?|[1-4][0-9]{2}|500)$', description: '1 to 500, default 100' })) },
  { additionalProperties: false, title: 'WebhookAttemptQuery' },
);
export type WebhookAttemptQuery = Static<typeof WebhookAttemptQuery>;

/**
 * POST /admin/v1/partners/{login}/webhooks/{id}/replay body: one event again, or every event since a time.
 *
 * @example
 * ```json
 * { "since": "2026-11-27T00:00:00Z" }
 * ```
 */
export const ReplayWebhooksBody = Type.Union(
  [
    Type.Object({ eventId: Type.String({ minLength: 1, maxLength: 64 }) }, { additionalProperties: false }),
    Type.Object({ since: Type.String({ format: 'date-time' }) }, { additionalProperties: false }),
  ],
  { title: 'ReplayWebhooksBody' },
);
export type ReplayWebhooksBody = Static<typeof ReplayWebhooksBody>;

export const ReplayWebhooksResult = Type.Object({ queued: Type.Integer({ minimum: 0, description: 'Deliveries queued' }) }, { additionalProperties: false, title: 'ReplayWebhooksResult' });
export type ReplayWebhooksResult = Static<typeof ReplayWebhooksResult>;
