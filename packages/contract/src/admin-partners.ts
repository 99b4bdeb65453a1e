import { Type, type Static } from 'typebox';
import { PartnerJwksView } from './admin-partner-keys.js';
import { PartnerCertificatesView } from './admin-partner-certificates.js';
import { CIDR_MAX_LENGTH, LOGIN_PATTERN, REWARD_TYPE_PATTERN } from './patterns.js';

/** The admin API's partner registry shapes. */

export const PartnerStatus = Type.Union([Type.Literal('active'), Type.Literal('blocked')], { title: 'PartnerStatus' });
export type PartnerStatus = Static<typeof PartnerStatus>;

/** The shortest API password an operator may set (the schema's minLength and the partner service's check). */
export const MIN_PASSWORD_LENGTH = 12;

const Password = Type.String({
  minLength: MIN_PASSWORD_LENGTH,
  maxLength: 256,
  description: `API password, at least ${MIN_PASSWORD_LENGTH} characters; stored only as an argon2id hash`,
});
export const IpAllowlist = Type.Array(Type.String({ maxLength: CIDR_MAX_LENGTH }), {
  maxItems: 1000,
  description: 'IPv4/IPv6 addresses or CIDRs; an empty list allows no address',
  title: 'IpAllowlist',
});
/**
 * A partner's reward types: any reward type name, or, for a gateway's catalogue (REWARD_TYPES), one of its types
 * (the items' `enum`, which the admin routes validate and their document shows).
 */
const rewardTypesOf = (catalogue?: readonly string[]) =>
  Type.Array(Type.String(catalogue === undefined ? { pattern: REWARD_TYPE_PATTERN } : { enum: [...catalogue] }), {
    maxItems: 50,
    description: 'Reward types the partner may use, each from the catalogue (GET /admin/v1/reward-types, REWARD_TYPES); another is refused with 422 naming the valid ones. The banks operation needs sbp',
  });

/**
 * How a partner may authenticate: `password` (the seed's login and encrypted-password banks call, and
 * `client_secret_basic`/`client_secret_post` at the token endpoint), `private_key_jwt` (a JWT signed with
 * one of the partner's registered keys, RFC 7523), and mutual TLS at the token endpoint (RFC 8705):
 * `self_signed_tls_client_auth` (one of its registered certificates) or `tls_client_auth` (a certificate
 * issued by a configured CA to its registered subject DN).
 */
export const AuthMethod = Type.Union([
  Type.Literal('password'),
  Type.Literal('private_key_jwt'),
  Type.Literal('self_signed_tls_client_auth'),
  Type.Literal('tls_client_auth'),
], { title: 'AuthMethod' });
export type AuthMethod = Static<typeof AuthMethod>;
export const AUTH_METHODS: readonly AuthMethod[] = ['password', 'private_key_jwt', 'self_signed_tls_client_auth', 'tls_client_auth'];

const AuthMethods = Type.Array(AuthMethod, {
  minItems: 1,
  maxItems: AUTH_METHODS.length,
  uniqueItems: true,
  description: 'How the partner may authenticate; `["password"]` by default. Without `password`, its password is refused everywhere.',
});
const RequireSenderConstrainedTokens = Type.Boolean({
  description: 'When true, every token the partner gets is bound to its key (DPoP, RFC 9449); a request without a proof is refused.',
});

/**
 * POST /admin/v1/partners body.
 *
 * @example
 * ```json
 * { "login": "acme", "password": "a-long-api-password", "ipAllowlist": ["203.0.113.0/24"], "rewardTypes": ["sbp"] }
 * ```
 */
const createPartnerBody = (catalogue?: readonly string[]) =>
  Type.Object(
    {
      login: Type.String({ pattern: LOGIN_PATTERN, description: 'Unique partner name, 3 to 64 characters' }),
      password: Password,
      ipAllowlist: IpAllowlist,
      rewardTypes: rewardTypesOf(catalogue),
      status: Type.Optional(PartnerStatus),
    },
    { title: 'CreatePartnerBody', additionalProperties: false },
  );
export const CreatePartnerBody = createPartnerBody();
export type CreatePartnerBody = Static<typeof CreatePartnerBody>;

/** Whether the partner may change its own IP allowlist through the self-service API. */
export const SelfManagedAllowlist = Type.Boolean({
  title: 'SelfManagedAllowlist',
  description: 'The partner may change its own ipAllowlist (PUT /api/v1/self/allowlist, with a bound token of scope self); false unless an operator allows it',
});

/** PATCH /admin/v1/partners/{login} body: the settings to change, at least one. */
const updatePartnerBody = (catalogue?: readonly string[]) =>
  Type.Object(
    {
      status: Type.Optional(PartnerStatus),
      password: Type.Optional(Password),
      ipAllowlist: Type.Optional(IpAllowlist),
      rewardTypes: Type.Optional(rewardTypesOf(catalogue)),
      authMethods: Type.Optional(AuthMethods),
      requireSenderConstrainedTokens: Type.Optional(RequireSenderConstrainedTokens),
      selfManagedAllowlist: Type.Optional(SelfManagedAllowlist),
      previousPasswordUntil: Type.Optional(
        Type.Null({ description: "null ends the overlap of the API password the partner rotated away from, now, and ends the partner's sessions" }),
      ),
    },
    { title: 'UpdatePartnerBody', additionalProperties: false, minProperties: 1 },
  );
export const UpdatePartnerBody = updatePartnerBody();
export type UpdatePartnerBody = Static<typeof UpdatePartnerBody>;

/**
 * CreatePartnerBody and UpdatePartnerBody for a gateway's reward type catalogue (REWARD_TYPES): what the admin
 * routes validate and document, so that the document lists the types the gateway accepts. Their static types are
 * CreatePartnerBody's and UpdatePartnerBody's.
 *
 * @example
 * ```ts
 * const { create, update } = partnerBodiesFor(['sbp', 'cashback']);
 * ```
 */
export function partnerBodiesFor(catalogue: readonly string[]) {
  return { create: createPartnerBody(catalogue), update: updatePartnerBody(catalogue) };
}

/** A partner as the admin API shows it: never a password or its hash. */
export const PartnerView = Type.Object({
  id: Type.String(),
  login: Type.String(),
  status: PartnerStatus,
  ipAllowlist: Type.Array(Type.String()),
  rewardTypes: Type.Array(Type.String()),
  unknownRewardTypes: Type.Array(Type.String(), {
    description: 'Those of rewardTypes not in the catalogue (REWARD_TYPES), stored before it left them out: empty unless someone should fix them',
  }),
  authMethods: Type.Array(AuthMethod),
  requireSenderConstrainedTokens: Type.Boolean(),
  selfManagedAllowlist: SelfManagedAllowlist,
  previousPasswordUntil: Type.Union([Type.String({ format: 'date-time' }), Type.Null()], {
    description: 'After the partner rotated its API password (POST /api/v1/self/password): until when the previous one is still accepted; null when none is',
  }),
  /** The partner's public keys for private_key_jwt (registered, or published at its jwksUri); null when none. */
  jwks: Type.Union([PartnerJwksView, Type.Null()]),
  /** The partner's client certificates and subject DN (mutual TLS); null when it has neither. */
  certificates: Type.Union([PartnerCertificatesView, Type.Null()]),
  createdAt: Type.String({ format: 'date-time' }),
  updatedAt: Type.String({ format: 'date-time' }),
}, { title: 'PartnerView' });
export type PartnerView = Static<typeof PartnerView>;

/**
 * What the audit trail keeps of a partner (a change's before and after): every setting an operator changes (a
 * field added to PartnerView is kept too), never a password or hash (the view has none); its keys and
 * certificates are audited by their own operations.
 */
export function auditablePartner(partner: PartnerView) {
  const { id: _id, login: _login, jwks: _jwks, certificates: _certificates, createdAt: _created, updatedAt: _updated, unknownRewardTypes: _unknown, ...settings } = partner;
  return settings;
}

/**
 * GET /admin/v1/reward-types: the reward types a partner may be given (REWARD_TYPES), what the console offers.
 *
 * @example
 * ```json
 * { "rewardTypes": ["sbp", "cashback"] }
 * ```
 */
export const RewardTypeCatalogue = Type.Object(
  { rewardTypes: Type.Array(Type.String({ pattern: REWARD_TYPE_PATTERN }), { minItems: 1, description: 'In the order REWARD_TYPES lists them' }) },
  { title: 'RewardTypeCatalogue' },
);
export type RewardTypeCatalogue = Static<typeof RewardTypeCatalogue>;

export const PartnerList = Type.Object({ partners: Type.Array(PartnerView) }, { title: 'PartnerList' });
export type PartnerList = Static<typeof PartnerList>;

export const LoginParams = Type.Object({ login: Type.String() }, { title: 'LoginParams' });
export type LoginParams = Static<typeof LoginParams>;

/** At most this many logins in one partner-activity request. */
export const MAX_ACTIVITY_LOGINS = 100;

/** GET /admin/v1/partner-activity query. */
export const ActivityQuery = Type.Object(
  {
    logins: Type.String({
      pattern: '^[A-Za-z0-9._@-]+(,[A-Za-z0-9._@-]+)*$',
      maxLength: MAX_ACTIVITY_LOGINS * 65,
      description: `Comma-separated partner logins, at most ${MAX_ACTIVITY_LOGINS}`,
    }),
  },
  { title: 'ActivityQuery', additionalProperties: false },
);
export type ActivityQuery = Static<typeof ActivityQuery>;

export const LastCall = Type.Object({ id: Type.String(), at: Type.String({ format: 'date-time' }), action: Type.String() }, { title: 'LastCall' });
export type LastCall = Static<typeof LastCall>;

export const PartnerActivity = Type.Object({ login: Type.String(), lastSuccessfulCall: Type.Union([LastCall, Type.Null()]) }, { title: 'PartnerActivity' });
export type PartnerActivity = Static<typeof PartnerActivity>;

/** The last successful partner API call of each partner asked about. */
export const ActivityResponse = Type.Object({ partners: Type.Array(PartnerActivity) }, { title: 'ActivityResponse' });
export type ActivityResponse = Static<typeof ActivityResponse>;
