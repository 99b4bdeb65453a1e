import { Type, type Static } from 'typebox';

/**
 * Who may do what on the admin API: three fixed roles, and the permission each admin operation declares. The
 * server enforces it in one hook, the admin OpenAPI document shows it on every operation (`x-permission`), the
 * console hides what the operator's role cannot do, and docs/admin.md's matrix is this table.
 */

/**
 * An operator's role.
 * - `viewer` reads everything but secrets;
 * - `operator` changes partners (but not their credentials), the bank list, imports and syncs;
 * - `security` changes partner credentials (password, keys, certificates), the gateway's signing keys, the
 *   operators and their tokens, exports the audit trail and decides which changes need a second operator.
 */
export const OperatorRole = Type.Union([Type.Literal('viewer'), Type.Literal('operator'), Type.Literal('security')], { title: 'OperatorRole' });
export type OperatorRole = Static<typeof OperatorRole>;
export const OPERATOR_ROLES: readonly OperatorRole[] = ['viewer', 'operator', 'security'];

/** What an admin operation needs (its `x-permission`). */
export const PERMISSIONS = [
  /** Read anything that is not a secret: partners, banks, keys' public halves, the audit trail, operators, proposals. */
  'read',
  /** Create, change (status, allowlist, reward types) and remove partners. */
  'partners.write',
  /** A partner's credentials: its password, authentication methods and token binding, public keys, certificates. */
  'partners.credentials',
  /** The bank list: add, remove, replace, import, sync. */
  'banks.write',
  /** The gateway's own signing and encryption keys: rotate, revoke. */
  'keys.write',
  /** Operators and their personal tokens. */
  'operators.write',
  /** The whole audit trail as a file. */
  'audit.export',
  /** A copy of the whole embedded database: every partner's sealed credentials and password hashes with it. */
  'database.backup',
  /** Which actions need a second operator's approval. */
  'approvals.settings',
  /** Approve or reject another operator's proposal (the proposal's own permission is needed too). */
  'approvals.decide',
] as const;
export type Permission = (typeof PERMISSIONS)[number];

/** The permissions of each role: the matrix. */
export const ROLE_PERMISSIONS: Readonly<Record<OperatorRole, readonly Permission[]>> = {
  viewer: ['read'],
  operator: ['read', 'partners.write', 'banks.write', 'approvals.decide'],
  security: ['read', 'partners.credentials', 'keys.write', 'operators.write', 'audit.export', 'database.backup', 'approvals.settings', 'approvals.decide'],
};

/**
 * Which credential proved who acts: a personal token, a console session from single sign-on, or ADMIN_TOKEN; or
 * `system`, the gateway itself acting on its own (the scheduled bank registry sync, the first bank list).
 */
/** How an actor proved who they are: a personal token, a console session (sso), ADMIN_TOKEN, the gateway itself (system), or a partner user's portal session (passkey). */
export const CredentialKind = Type.Union([Type.Literal('token'), Type.Literal('sso'), Type.Literal('bootstrap'), Type.Literal('system'), Type.Literal('passkey')], { title: 'CredentialKind' });
export type CredentialKind = Static<typeof CredentialKind>;

/**
 * Whether `role` holds `permission`; the bootstrap credential (no role: ADMIN_TOKEN) holds every one.
 *
 * @example
 * ```ts
 * roleAllows('operator', 'banks.write'); // true
 * roleAllows('operator', 'keys.write'); // false
 * ```
 */
export function roleAllows(role: OperatorRole | 'bootstrap', permission: Permission): boolean {
  return role === 'bootstrap' || ROLE_PERMISSIONS[role].includes(permission);
}

/** The roles holding `permission`, in the roles' order (what the OpenAPI document and docs/admin.md name). */
export function rolesWith(permission: Permission): OperatorRole[] {
  return OPERATOR_ROLES.filter((role) => ROLE_PERMISSIONS[role].includes(permission));
}
