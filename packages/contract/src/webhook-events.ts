import { Type, type Static } from 'typebox';

/**
 * What the gateway sends a partner's webhook endpoint (issue 34), in the Standard Webhooks format
 * (https://www.standardwebhooks.com): a POST of this JSON body with the headers `webhook-id`, `webhook-timestamp`
 * (Unix seconds) and `webhook-signature` (space-separated `v1a,<base64>` ed25519 and/or `v1,<base64>` HMAC-SHA256
 * signatures of `${id}.${timestamp}.${body}`).
 */

/** The headers every delivery carries. */
export const WEBHOOK_HEADERS = { id: 'webhook-id', timestamp: 'webhook-timestamp', signature: 'webhook-signature' } as const;

/** The one event type: a new version of the bank list was published. */
export const SBP_BANKS_UPDATED = 'sbp_banks.updated';

/**
 * `sbp_banks.updated`: the bank list partners get changed. Fetch it again with `If-None-Match: <etag>`.
 *
 * @example
 * ```json
 * { "type": "sbp_banks.updated", "timestamp": "2026-11-28T09:00:00.000Z",
 *   "data": { "version": 8, "etag": "\"3q2-7w\"", "added": ["044525974"], "removed": [] } }
 * ```
 */
export const SbpBanksUpdatedEvent = Type.Object(
  {
    type: Type.Literal(SBP_BANKS_UPDATED),
    timestamp: Type.String({ format: 'date-time', description: 'When the version was published' }),
    data: Type.Object(
      {
        version: Type.Integer({ minimum: 1, description: 'The bank list version now published' }),
        etag: Type.String({ description: 'The strong ETag of the partners\' body of that version (the banks call answers it as ETag)' }),
        added: Type.Array(Type.String(), { description: 'BICs the version added' }),
        removed: Type.Array(Type.String(), { description: 'BICs the version removed' }),
      },
      { additionalProperties: false },
    ),
  },
  { additionalProperties: false, title: 'SbpBanksUpdatedEvent' },
);
export type SbpBanksUpdatedEvent = Static<typeof SbpBanksUpdatedEvent>;
