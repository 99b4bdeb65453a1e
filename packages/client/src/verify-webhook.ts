import { createHmac, createPublicKey, timingSafeEqual, verify } from 'node:crypto';
import { WEBHOOK_HEADERS, type SbpBanksUpdatedEvent } from '@partner-gateway/contract/webhook-events';

/** What verifies an endpoint's deliveries: its `whpk_` public key (v1a, ed25519) and/or its `whsec_` secret (v1, HMAC). */
export interface WebhookVerificationKeys {
  /** `whpk_<base64>`, the endpoint's public key (v1a). */
  publicKey?: string;
  /** `whsec_<base64>`, the endpoint's secret (v1); during a rotation's overlap either the old or the new one verifies. */
  secret?: string;
}

export interface VerifyWebhookOptions {
  /** Seconds the `webhook-timestamp` may be off the receiver's clock, either way (default 300). */
  toleranceSeconds?: number;
  /** The receiver's clock in ms (default Date.now). */
  now?: () => number;
}

/** Why a delivery was refused: answer it with a 4xx and do not act on it. */
export class WebhookVerificationError extends Error {
  override name = 'WebhookVerificationError';
}

/**
 * Verifies a delivery from the gateway (Standard Webhooks: `${webhook-id}.${webhook-timestamp}.${body}` signed as
 * `v1a,<base64>` ed25519 and/or `v1,<base64>` HMAC-SHA256 in `webhook-signature`) and returns its event. Pass the
 * body exactly as received (the raw bytes or text, before any JSON parsing). Throws WebhookVerificationError when no
 * signature verifies with the given keys or the timestamp is outside the tolerance window. Deduplicate on
 * `webhook-id`: a retry or a replay carries the same id.
 *
 * @example
 * ```ts
 * const event = verifyWebhook(rawBody, request.headers, { publicKey: process.env.GATEWAY_WEBHOOK_KEY });
 * if (event.type === 'sbp_banks.updated') await client.banks({ ifNoneMatch: heldEtag });
 * ```
 */
export function verifyWebhook(
  body: string | Uint8Array,
  headers: Record<string, string | string[] | undefined> | Headers,
  keys: WebhookVerificationKeys,
  options: VerifyWebhookOptions = {},
): SbpBanksUpdatedEvent {
  const header = (name: string) => {
    const value = headers instanceof Headers ? headers.get(name) : headers[name];
    return Array.isArray(value) ? value[0] : (value ?? undefined);
  };
  const id = header(WEBHOOK_HEADERS.id);
  const timestamp = header(WEBHOOK_HEADERS.timestamp);
  const signatures = header(WEBHOOK_HEADERS.signature);
  if (!id || !timestamp || !signatures) throw new WebhookVerificationError('missing webhook-id, webhook-timestamp or webhook-signature');
  if (!/^\d{1,12}$/.test(timestamp)) throw new WebhookVerificationError('webhook-timestamp is not Unix seconds');
  const tolerance = options.toleranceSeconds ?? 300;
  const skew = Math.abs((options.now ?? Date.now)() / 1000 - Number(timestamp));
  if (skew > tolerance) throw new WebhookVerificationError(`webhook-timestamp is ${Math.round(skew)} s off this clock (tolerance ${tolerance} s)`);
  const text = typeof body === 'string' ? body : Buffer.from(body).toString('utf8');
  const content = Buffer.from(`${id}.${timestamp}.${text}`);
  const verified = signatures.split(' ').some((entry) => {
    const [scheme, signature] = entry.split(',', 2);
    if (!signature) return false;
    const given = Buffer.from(signature, 'base64');
    if (scheme === 'v1' && keys.secret) {
      const expected = createHmac('sha256', Buffer.from(keys.secret.replace(/^whsec_/, ''), 'base64')).update(content).digest();
      return given.length === expected.length && timingSafeEqual(given, expected);
    }
    if (scheme === 'v1a' && keys.publicKey) {
      const raw = Buffer.from(keys.publicKey.replace(/^whpk_/, ''), 'base64');
      const key = createPublicKey({ key: { kty: 'OKP', crv: 'Ed25519', x: raw.toString('base64url') }, format: 'jwk' });
      return verify(null, content, key, given);
    }
    return false;
  });
  if (!verified) throw new WebhookVerificationError('no signature verifies with the given key or secret');
  try {
    return JSON.parse(text) as SbpBanksUpdatedEvent;
  } catch {
    throw new WebhookVerificationError('the body is not JSON');
  }
}
