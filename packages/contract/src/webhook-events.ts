import { Type, type Static } from 'typebox';

/**
 * What the gateway sends a partner's webhook endpoint (issue 34), in the Standard Webhooks format
 * (https://www.standardwebhooks.com): a POST of this JSON body with the headers `webhook-id`, `webhook-timestamp`
 * (Unix seconds) and `webhook-signature` (space-separated `v1a,<base64>` ed25519 and/or `v1,<base64>` HMAC-SHA256
 * signatures of `${id}.${timestamp}.${body}`).
 */

/** The headers every delivery carries. */
export const WEBHOOK_HEADERS = { id: 'webhook-id', timestamp: 'webhook-timestamp', signature: 'webhook-signature' } as const;

/** A new version of the bank list was published (sent to every partner's endpoints). */
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

/** A partner's own credential ends within 7 days: a rotation's overlap window (key, certificate, API password), or a certificate's notAfter. */
export const CREDENTIAL_EXPIRING = 'credential.expiring';

/** A kind of partner credential that stops working by itself: a private_key_jwt key, a registered client certificate, or the API password a rotation replaced. */
export const EndingCredential = Type.Union([Type.Literal('key'), Type.Literal('certificate'), Type.Literal('password')], {
  title: 'EndingCredential',
  description: 'A private_key_jwt key, a registered client certificate, or the API password a rotation replaced',
});
export type EndingCredential = Static<typeof EndingCredential>;

/**
 * `credential.expiring`: one of the partner's credentials stops working at `expiresAt`, 7 days or less from now.
 * Sent to the partner's own endpoints only, once per credential and end (a later rotation that moves the end
 * announces the new one). A key, or the API password a rotation replaced, ends when the overlap window the rotation
 * chose ends; a certificate at its notAfter or its rotation's end, whichever comes first.
 *
 * @example
 * ```json
 * { "type": "credential.expiring", "timestamp": "2026-11-28T09:00:00.000Z",
 *   "data": { "credential": "key", "id": "acme-2026", "expiresAt": "2026-11-29T09:00:00.000Z" } }
 * ```
 */
export const CredentialExpiringEvent = Type.Object(
  {
    type: Type.Literal(CREDENTIAL_EXPIRING),
    timestamp: Type.String({ format: 'date-time', description: 'When the gateway noticed the end coming' }),
    data: Type.Object(
      {
        credential: EndingCredential,
        id: Type.String({ description: "The key's kid, the certificate's x5t#S256 thumbprint, or `previous` (the API password a rotation replaced)" }),
        expiresAt: Type.String({ format: 'date-time', description: 'When it stops being accepted' }),
      },
      { additionalProperties: false },
    ),
  },
  { additionalProperties: false, title: 'CredentialExpiringEvent' },
);
export type CredentialExpiringEvent = Static<typeof CredentialExpiringEvent>;
