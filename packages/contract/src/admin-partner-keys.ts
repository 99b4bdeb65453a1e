import { Type, type Static } from 'typebox';

/** The admin API's shapes for a partner's public keys (private_key_jwt and DPoP partners, issue 13). */

/**
 * PUT /admin/v1/partners/{login}/jwks body: the partner's public keys themselves, or the https URL where it
 * publishes them. Keys: EC P-256 (ES256), Ed25519 (EdDSA) or RSA of at least 2048 bits (PS256), public
 * members only, each kid once.
 *
 * @example
 * ```json
 * { "keys": [{ "kty": "EC", "crv": "P-256", "kid": "acme-2026", "x": "...", "y": "..." }] }
 * ```
 * @example
 * ```json
 * { "jwksUri": "https://acme.example/.well-known/jwks.json" }
 * ```
 */
export const SetPartnerJwksBody = Type.Object(
  {
    keys: Type.Optional(Type.Array(Type.Object({}, { additionalProperties: true }), { minItems: 1, maxItems: 20, description: 'Public JWKs' })),
    jwksUri: Type.Optional(
      Type.String({ minLength: 1, maxLength: 2048, description: 'https URL of the partner\'s JWK Set (http only to a loopback address outside production)' }),
    ),
  },
  // One object with exactly one of the two, rather than a union of two objects: a refused body then gets one
  // clear error, not each branch's complaints side by side.
  { title: 'SetPartnerJwksBody', additionalProperties: false, minProperties: 1, maxProperties: 1, description: 'Exactly one of keys or jwksUri' },
);
export type SetPartnerJwksBody = Static<typeof SetPartnerJwksBody>;

/** One of a partner's public keys as the admin API shows it. */
export const PartnerKeyView = Type.Object({
  kid: Type.String(),
  kty: Type.Union([Type.Literal('EC'), Type.Literal('OKP'), Type.Literal('RSA')]),
  /** `P-256` or `Ed25519`; absent for RSA keys. */
  crv: Type.Optional(Type.String()),
  /** The RSA modulus size in bits; absent for EC and OKP keys. */
  size: Type.Optional(Type.Integer()),
  alg: Type.Union([Type.Literal('ES256'), Type.Literal('EdDSA'), Type.Literal('PS256')]),
  /** RFC 7638 SHA-256 thumbprint, base64url. */
  thumbprint: Type.String(),
  /** When the key stops being accepted: set by a rotation's overlap window (`POST /api/v1/self/keys`); absent for a key without an end. */
  expiresAt: Type.Optional(Type.String({ format: 'date-time' })),
}, { title: 'PartnerKeyView' });
export type PartnerKeyView = Static<typeof PartnerKeyView>;

/**
 * A partner's keys: registered ones (`jwksUri` null), or the set last fetched from its `jwksUri`
 * (`fetchedAt` null and `keys` empty until the first fetch).
 */
export const PartnerJwksView = Type.Object({
  keys: Type.Array(PartnerKeyView),
  jwksUri: Type.Union([Type.String(), Type.Null()]),
  fetchedAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
}, { title: 'PartnerJwksView' });
export type PartnerJwksView = Static<typeof PartnerJwksView>;
