import { Type, type Static } from 'typebox';
import { CredentialKind, OperatorRole, PERMISSIONS, type Permission } from './admin-permissions.js';

/** The admin API's operator shapes: operators, their personal tokens, and who is signed in. */

export const OperatorStatus = Type.Union([Type.Literal('active'), Type.Literal('disabled')], { title: 'OperatorStatus' });
export type OperatorStatus = Static<typeof OperatorStatus>;

/** Longest life of a personal token: a year. */
export const MAX_TOKEN_DAYS = 365;
/** Life of a personal token when none is asked for. */
export const DEFAULT_TOKEN_DAYS = 90;

const OperatorName = Type.String({
  minLength: 1,
  maxLength: 100,
  pattern: '^[^\\u0000-\\u001f\\u007f]+$',
  description: 'How the audit trail and the console name the operator (unique), e.g. `alice` or `Alice Ivanova`',
});

/** An operator as the admin API shows it. */
export const OperatorView = Type.Object({
  id: Type.String({ description: 'Stable identifier: what the audit trail records beside the name' }),
  name: Type.String(),
  role: OperatorRole,
  status: OperatorStatus,
  /** `local`: created through the API, signs in with personal tokens; `sso`: created on first single sign-on. */
  source: Type.Union([Type.Literal('local'), Type.Literal('sso')]),
  createdAt: Type.String({ format: 'date-time' }),
  updatedAt: Type.String({ format: 'date-time' }),
  lastUsedAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()], { description: 'Last request with any of its credentials (recorded within a minute)' }),
}, { title: 'OperatorView' });
export type OperatorView = Static<typeof OperatorView>;

export const OperatorList = Type.Object({ operators: Type.Array(OperatorView) }, { title: 'OperatorList' });
export type OperatorList = Static<typeof OperatorList>;

/**
 * POST /admin/v1/operators body.
 *
 * @example
 * ```json
 * { "name": "alice", "role": "operator" }
 * ```
 */
export const CreateOperatorBody = Type.Object({ name: OperatorName, role: OperatorRole }, { title: 'CreateOperatorBody', additionalProperties: false });
export type CreateOperatorBody = Static<typeof CreateOperatorBody>;

/** PATCH /admin/v1/operators/{id} body: at least one of name, role and status (`disabled` refuses all its credentials at once). */
export const UpdateOperatorBody = Type.Object(
  { name: Type.Optional(OperatorName), role: Type.Optional(OperatorRole), status: Type.Optional(OperatorStatus) },
  { title: 'UpdateOperatorBody', additionalProperties: false, minProperties: 1 },
);
export type UpdateOperatorBody = Static<typeof UpdateOperatorBody>;

export const OperatorIdParams = Type.Object({ id: Type.String({ pattern: '^[0-9a-f-]{36}$', description: 'The operator id' }) }, { title: 'OperatorIdParams' });
export type OperatorIdParams = Static<typeof OperatorIdParams>;

/** A personal token as listed: never the token itself (shown once, at creation, and stored only as a hash). */
export const TokenView = Type.Object({
  id: Type.String(),
  label: Type.String(),
  createdAt: Type.String({ format: 'date-time' }),
  /** Who created it: an operator id, or `bootstrap`. */
  createdBy: Type.String(),
  /**
   * The operators other than its own through whose credentials it was created, the first at the root of the chain
   * (a token created with a token counts every operator behind that one): maker-checker counts each of them as the
   * token's user. Empty when its own operator or the bootstrap credential created it.
   */
  issuedThrough: Type.Array(Type.String()),
  expiresAt: Type.String({ format: 'date-time' }),
  lastUsedAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()], { description: 'Recorded within a minute of use' }),
  revokedAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
}, { title: 'TokenView' });
export type TokenView = Static<typeof TokenView>;

export const TokenList = Type.Object({ tokens: Type.Array(TokenView) }, { title: 'TokenList' });
export type TokenList = Static<typeof TokenList>;

/**
 * POST /admin/v1/operators/{id}/tokens body.
 *
 * @example
 * ```json
 * { "label": "laptop CLI", "expiresInDays": 30 }
 * ```
 */
export const CreateTokenBody = Type.Object(
  {
    label: Type.String({ minLength: 1, maxLength: 100, pattern: '^[^\\u0000-\\u001f\\u007f]+$', description: 'What the token is for (shown in the list)' }),
    expiresInDays: Type.Optional(Type.Integer({ minimum: 1, maximum: MAX_TOKEN_DAYS, description: `Days until it expires; ${DEFAULT_TOKEN_DAYS} by default, at most ${MAX_TOKEN_DAYS}` })),
  },
  { title: 'CreateTokenBody', additionalProperties: false },
);
export type CreateTokenBody = Static<typeof CreateTokenBody>;

/** The answer to a token's creation: the token itself, shown this once. */
export const CreatedToken = Type.Object({
  ...TokenView.properties,
  token: Type.String({ description: 'Send as `Authorization: Bearer <token>`; shown only now, stored only as a hash' }),
}, { title: 'CreatedToken' });
export type CreatedToken = Static<typeof CreatedToken>;

export const TokenParams = Type.Object({ id: OperatorIdParams.properties.id, tokenId: Type.String({ pattern: '^[0-9a-f-]{36}$' }) }, { title: 'TokenParams' });
export type TokenParams = Static<typeof TokenParams>;

/** Who a request acts as: GET /admin/v1/me. */
export const AdminIdentity = Type.Object({
  /** The operator id, or `bootstrap` for ADMIN_TOKEN. */
  id: Type.String(),
  name: Type.String(),
  /** null for the bootstrap credential, which holds every permission. */
  role: Type.Union([OperatorRole, Type.Null()]),
  credential: CredentialKind,
  permissions: Type.Array(Type.Unsafe<Permission>(Type.String({ enum: [...PERMISSIONS] }))),
}, { title: 'AdminIdentity' });
export type AdminIdentity = Static<typeof AdminIdentity>;

/** The console's single sign-on session: GET /admin/v1/session. */
export const SessionView = Type.Object({
  identity: AdminIdentity,
  /** Send as `X-CSRF-Token` on every request that changes something. */
  csrfToken: Type.String(),
  /** When the session ends without activity (idle timeout), and at the latest (absolute timeout). */
  idleExpiresAt: Type.String({ format: 'date-time' }),
  expiresAt: Type.String({ format: 'date-time' }),
}, { title: 'SessionView' });
export type SessionView = Static<typeof SessionView>;

/** How the console may sign in: GET /admin/v1/sign-in (no credential needed). */
export const SignInOptions = Type.Object({
  /** True when OIDC_ISSUER is configured: the console offers "Sign in with single sign-on" (GET /sso/start). */
  sso: Type.Boolean(),
}, { title: 'SignInOptions' });
export type SignInOptions = Static<typeof SignInOptions>;
