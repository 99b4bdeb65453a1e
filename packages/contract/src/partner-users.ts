import { Type, type Static } from 'typebox';

/**
 * A partner's own people (docs/portal-security.md): partner users, each signing in to the portal at `/portal/` with
 * a passkey, never a password. They are a different kind of principal from operators: a partner user sees and
 * changes its own partner only.
 */

/** How long an invitation link works; single use. */
export const INVITATION_TTL_SECONDS = 72 * 3600;
/** People a partner may have, invitations waiting included; passkeys one person may register. */
export const MAX_PARTNER_USERS = 50;
export const MAX_PASSKEYS_PER_USER = 10;

/** `partner-admin`: credentials, webhook endpoints, the partner's people. `partner-developer`: reads everything, changes nothing. */
export const PartnerUserRole = Type.Union([Type.Literal('partner-admin'), Type.Literal('partner-developer')], { title: 'PartnerUserRole' });
export type PartnerUserRole = Static<typeof PartnerUserRole>;

/** A person's name as the partner knows them (an e-mail address, typically): unique within the partner, no control characters. */
export const PartnerUserName = () =>
  Type.String({ minLength: 3, maxLength: 100, pattern: '^[^\\u0000-\\u001f\\u007f\\s][^\\u0000-\\u001f\\u007f]*$', description: 'How the person is named in the portal and the audit trail (an e-mail address, typically)' });

/** One of a partner's people as the portal, the self-service API and operators see them. */
export const PartnerUserView = Type.Object(
  {
    id: Type.String(),
    name: PartnerUserName(),
    role: PartnerUserRole,
    passkeys: Type.Integer({ minimum: 0, description: 'Passkeys registered; 0 until the invitation is accepted' }),
    createdAt: Type.String({ format: 'date-time' }),
    lastSignInAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
  },
  { title: 'PartnerUserView' },
);
export type PartnerUserView = Static<typeof PartnerUserView>;

/** An invitation not yet used, as listed beside the people. */
export const PendingInvitation = Type.Object(
  {
    id: Type.String(),
    name: PartnerUserName(),
    role: PartnerUserRole,
    expiresAt: Type.String({ format: 'date-time' }),
    recovery: Type.Boolean({ description: 'For a person already registered who lost their passkeys: accepting adds a passkey to them' }),
  },
  { title: 'PendingInvitation' },
);
export type PendingInvitation = Static<typeof PendingInvitation>;

/**
 * GET /api/v1/self/users answer (and the operator's GET /admin/v1/partners/{login}/users).
 *
 * @example
 * ```json
 * { "users": [{ "id": "pu_…", "name": "anna@acme.example", "role": "partner-admin", "passkeys": 1, "createdAt": "…", "lastSignInAt": null }], "invitations": [] }
 * ```
 */
export const PartnerUserList = Type.Object({ users: Type.Array(PartnerUserView), invitations: Type.Array(PendingInvitation) }, { title: 'PartnerUserList' });
export type PartnerUserList = Static<typeof PartnerUserList>;

/**
 * POST /api/v1/self/users/invitations body (partner-admin), and the operator's. Inviting a name that is already one
 * of the partner's people is recovery: the link adds a passkey to that person and keeps their role.
 *
 * @example
 * ```json
 * { "name": "dev@acme.example", "role": "partner-developer" }
 * ```
 */
export const InvitePartnerUserRequest = Type.Object({ name: PartnerUserName(), role: PartnerUserRole }, { title: 'InvitePartnerUserRequest', additionalProperties: false });
export type InvitePartnerUserRequest = Static<typeof InvitePartnerUserRequest>;

/** The invitation: its link, shown this once (only its hash is stored); send it to the person by a channel you trust. */
export const InvitationCreated = Type.Object(
  {
    invitation: PendingInvitation,
    url: Type.String({ description: 'The single-use link to the portal, with the invitation secret in its fragment (never sent to a server log)' }),
  },
  { title: 'InvitationCreated' },
);
export type InvitationCreated = Static<typeof InvitationCreated>;

/** PUT /api/v1/self/users/{id} body: a new role. The partner's last partner-admin cannot be made a developer. */
export const ChangePartnerUserRequest = Type.Object({ role: PartnerUserRole }, { title: 'ChangePartnerUserRequest', additionalProperties: false });
export type ChangePartnerUserRequest = Static<typeof ChangePartnerUserRequest>;

/** A partner user's id, as every path that names one takes it. */
export const PartnerUserId = () => Type.String({ pattern: '^pu_[A-Za-z0-9_-]{16,64}$' });

export const PartnerUserParams = Type.Object({ id: PartnerUserId() }, { title: 'PartnerUserParams', additionalProperties: false });
export type PartnerUserParams = Static<typeof PartnerUserParams>;
