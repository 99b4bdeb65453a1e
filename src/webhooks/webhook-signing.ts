import { createHmac, createPrivateKey, generateKeyPairSync, randomBytes, sign } from 'node:crypto';
import type { WebhookScheme } from '@partner-gateway/contract/admin-webhooks';

/**
 * An endpoint's signing material, as sealed at rest: an HMAC secret (`v1`) or an ed25519 private key (`v1a`, PKCS#8
 * DER), base64. Never logged, never in an error, never in an audit entry.
 */
export interface SigningMaterial {
  scheme: WebhookScheme;
  /** Base64 of the HMAC secret's bytes (v1) or of the private key's PKCS#8 DER (v1a). */
  key: string;
}

/** New material, what the partner is given for it (the `whsec_` secret for v1, the `whpk_` public key for v1a). */
export interface NewMaterial {
  material: SigningMaterial;
  /** `whsec_<base64>`, shown once (v1); null for v1a. */
  secret: string | null;
  /** `whpk_<base64 of the raw 32 bytes>` (v1a); null for v1. */
  publicKey: string | null;
}

/** Fresh signing material of `scheme`: 32 random bytes (v1) or an ed25519 key pair (v1a). */
export function newSigningMaterial(scheme: WebhookScheme): NewMaterial {
  if (scheme === 'v1') {
    const secret = randomBytes(32).toString('base64');
    return { material: { scheme, key: secret }, secret: `whsec_${secret}`, publicKey: null };
  }
  const { privateKey, publicKey } = generateKeyPairSync('ed25519');
  const raw = publicKey.export({ format: 'jwk' }).x!;
  return {
    material: { scheme, key: privateKey.export({ format: 'der', type: 'pkcs8' }).toString('base64') },
    secret: null,
    publicKey: `whpk_${Buffer.from(raw, 'base64url').toString('base64')}`,
  };
}

/**
 * The `webhook-signature` header for a message: one `<scheme>,<base64>` per material (the current one first, then
 * the one a rotation keeps for its overlap), space-separated, over `${id}.${timestamp}.${body}` (Standard Webhooks).
 *
 * @example
 * ```ts
 * signatureHeader('msg_2b', 1764320400, '{"type":"sbp_banks.updated",...}', [current, previous]); // 'v1a,Zm9v... v1,YmFy...'
 * ```
 */
export function signatureHeader(id: string, timestamp: number, body: string, materials: readonly SigningMaterial[]): string {
  const content = Buffer.from(`${id}.${timestamp}.${body}`);
  return materials
    .map((material) => {
      const key = Buffer.from(material.key, 'base64');
      if (material.scheme === 'v1') return `v1,${createHmac('sha256', key).update(content).digest('base64')}`;
      return `v1a,${sign(null, content, createPrivateKey({ key, format: 'der', type: 'pkcs8' })).toString('base64')}`;
    })
    .join(' ');
}
