import { Type, type Static } from 'typebox';
import { BIC_PATTERN } from './patterns.js';

/**
 * The partner API's wire shapes (login, refresh, logout, banks, JWKS, probes): the server validates and
 * serializes with them, the OpenAPI document is generated from them and the SDK is typed by them.
 */

/**
 * POST /api/v1/login/ body.
 *
 * @example
 * ```json
 * { "login": "acme", "password": "s3cret-api-password" }
 * ```
 */
export const LoginRequest = Type.Object(
  {
    login: Type.String({ minLength: 1, maxLength: 256, description: 'Unique partner name' }),
    password: Type.String({ minLength: 1, maxLength: 1024, description: 'Partner API password' }),
  },
  { title: 'LoginRequest', additionalProperties: false },
);
export type LoginRequest = Static<typeof LoginRequest>;

/**
 * What login and refresh answer.
 *
 * @example
 * ```json
 * { "access_token": "eyJ...", "token_type": "bearer", "expires_in": 900, "refresh_token": "Qm9v...", "refresh_expires_in": 604800 }
 * ```
 */
export const TokenResponse = Type.Object({
  access_token: Type.String({ description: 'JWT (RFC 9068, ES256) to send as Authorization: Bearer (as DPoP, with a proof, when token_type is DPoP)' }),
  token_type: Type.Union([Type.Literal('bearer'), Type.Literal('DPoP')], {
    description: '`DPoP` when the request carried a DPoP proof (RFC 9449): the token is bound to that key',
  }),
  expires_in: Type.Integer({ description: 'Token lifetime in seconds' }),
  refresh_token: Type.String({ description: 'Opaque, single-use: POST it to /api/v1/token/refresh/ for a new access token and a new refresh token' }),
  refresh_expires_in: Type.Integer({ description: 'Refresh token lifetime in seconds' }),
}, { title: 'TokenResponse' });
export type TokenResponse = Static<typeof TokenResponse>;

/** POST /api/v1/token/refresh/ body. */
export const RefreshRequest = Type.Object(
  {
    refresh_token: Type.String({ minLength: 1, maxLength: 256, description: 'The refresh token from the last login or refresh' }),
  },
  { title: 'RefreshRequest', additionalProperties: false },
);
export type RefreshRequest = Static<typeof RefreshRequest>;

/** The fields a partner may ask for with `?fields=` (BanksQuery), in the order a bank carries them. */
export const BANK_OPT_IN_FIELDS = ['sbpMemberId', 'nameEn'] as const;
export type BankOptInField = (typeof BANK_OPT_IN_FIELDS)[number];

/** One item of `fields`: an opt-in field's name, white space around it and an empty item ignored (as the operation reads it). */
const OPT_IN_FIELD = `\\s*(?:(?:${BANK_OPT_IN_FIELDS.join('|')})\\s*)?`;
/** `fields` as the banks operation accepts it: comma-separated BANK_OPT_IN_FIELDS. */
export const BANK_FIELDS_PATTERN = `^${OPT_IN_FIELD}(?:,${OPT_IN_FIELD})*$`;

/** The banks operation's query string. */
export const BanksQuery = Type.Object({
  partnerName: Type.Optional(Type.String({ description: 'Unique partner name (optional with a bearer token; must then name its partner)' })),
  partnerPassword: Type.Optional(Type.String({ description: 'The API password as a compact JWE (RSA-OAEP-256, A256GCM, iat and jti in the header)' })),
  useAuthByCert: Type.Optional(Type.Enum(['Y', 'N'], { description: 'Must be Y: the password is encrypted (N is refused with 422)' })),
  fields: Type.Optional(
    Type.String({
      maxLength: 200,
      pattern: BANK_FIELDS_PATTERN,
      description:
        'Opt-in fields beside name and bic, comma-separated: `sbpMemberId` (the NSPK member id), `nameEn` (the Latin name). Each bank then carries every field asked for, null when unknown for that bank. Without it the body is exactly `{"banks":[{"name","bic"}]}`; any other name is a 422.',
    }),
  ),
}, { title: 'BanksQuery' });
export type BanksQuery = Static<typeof BanksQuery>;

/** A bank that can receive SBP business-to-consumer transfers. */
export const Bank = Type.Object({ name: Type.String(), bic: Type.String({ pattern: BIC_PATTERN }) }, { title: 'Bank' });
export type Bank = Static<typeof Bank>;

/**
 * The banks operation's answer.
 *
 * @example
 * ```json
 * { "banks": [{ "name": "Сбербанк", "bic": "044525225" }] }
 * ```
 */
export const BanksResponse = Type.Object({ banks: Type.Array(Bank) }, { title: 'BanksResponse' });
export type BanksResponse = Static<typeof BanksResponse>;

/**
 * A bank of the answer to `?fields=sbpMemberId,nameEn`: the fields asked for are always present, null when unknown.
 *
 * @example
 * ```json
 * { "banks": [{ "name": "Сбербанк", "bic": "044525225", "sbpMemberId": "100000000111", "nameEn": "Sberbank" }] }
 * ```
 */
export const BankWithFields = Type.Object({
  ...Bank.properties,
  sbpMemberId: Type.Optional(Type.Union([Type.String(), Type.Null()])),
  nameEn: Type.Optional(Type.Union([Type.String(), Type.Null()])),
}, { title: 'BankWithFields' });
export type BankWithFields = Static<typeof BankWithFields>;

/** GET /.well-known/jwks.json: sig keys verify access tokens, enc keys encrypt partnerPassword. */
export const JwksResponse = Type.Object({
  keys: Type.Array(
    Type.Object(
      {
        kid: Type.String(),
        use: Type.Union([Type.Literal('sig'), Type.Literal('enc')]),
        alg: Type.String({ description: 'ES256 (sig) or RSA-OAEP-256 (enc)' }),
        kty: Type.String(),
      },
      { additionalProperties: true },
    ),
  ),
}, { title: 'JwksResponse' });
export type JwksResponse = Static<typeof JwksResponse>;

/** The liveness probe's answer. */
export const ProbeStatus = Type.Object({ status: Type.String() }, { title: 'ProbeStatus' });
export type ProbeStatus = Static<typeof ProbeStatus>;

const DependencyState = Type.Object({
  state: Type.Union([Type.Literal('up'), Type.Literal('down')], { description: '`up`: it answered a trivial command within a second' }),
});

/**
 * The readiness probe's answer (`GET /readyz`): the gateway's state and each dependency's. `ready` and
 * `degraded` are answered 200, `not_ready` 503. `degraded`: Redis (REDIS_URL) is down and the gateway serves from
 * the database instead, as every instance does, so it stays in rotation; `not_ready`: the database is down.
 * `redis` is absent without REDIS_URL.
 *
 * @example
 * ```json
 * { "status": "degraded", "dependencies": { "database": { "state": "up" }, "redis": { "state": "down" } } }
 * ```
 */
export const ReadinessReport = Type.Object({
  status: Type.Union([Type.Literal('ready'), Type.Literal('degraded'), Type.Literal('not_ready')]),
  dependencies: Type.Object({
    database: DependencyState,
    redis: Type.Optional(DependencyState),
  }),
}, { title: 'ReadinessReport' });
export type ReadinessReport = Static<typeof ReadinessReport>;
