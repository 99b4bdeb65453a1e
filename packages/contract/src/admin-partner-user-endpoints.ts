import { adminEndpoint } from './admin-endpoint.js';
import { LoginParams } from './admin-partners.js';
import { Type, type Static } from 'typebox';
import { InvitationCreated, InvitePartnerUserRequest, PartnerUserId, PartnerUserList } from './partner-users.js';
import { ADMIN_PARTNER_INVITATIONS_PATH, ADMIN_PARTNER_USER_PATH, ADMIN_PARTNER_USERS_PATH } from './paths.js';

/** A partner's login and one of its people's ids. */
export const PartnerUserAdminParams = Type.Object({ login: Type.String({ minLength: 1, maxLength: 64 }), id: PartnerUserId() }, { title: 'PartnerUserAdminParams', additionalProperties: false });
export type PartnerUserAdminParams = Static<typeof PartnerUserAdminParams>;

const tags = ['Partners'];

/**
 * A partner's people in the portal (docs/portal-security.md): operators see them and invite the first
 * partner-admin, who then invites the others; a person who lost every passkey is invited again (recovery).
 *
 * @example
 * ```ts
 * const { url } = await admin.partnerUsers.invite('acme', { name: 'anna@acme.example', role: 'partner-admin' });
 * ```
 */
export const PARTNER_USER_ENDPOINTS = {
  list: adminEndpoint({
    method: 'GET',
    path: ADMIN_PARTNER_USERS_PATH,
    operationId: 'listPartnerUsers',
    tags,
    summary: "A partner's people in the portal, with their pending invitations",
    params: LoginParams,
    status: 200,
    answer: PartnerUserList,
    permission: 'read',
    cli: 'partner users',
    send: (login: string) => ({ params: { login } }),
  }),
  invite: adminEndpoint({
    method: 'POST',
    path: ADMIN_PARTNER_INVITATIONS_PATH,
    operationId: 'invitePartnerUser',
    tags,
    summary: 'Invite a person of the partner to its portal (a single-use link, valid 72 hours)',
    description:
      'The answer carries the link once: send it to the person by a channel you trust. Inviting a name already registered is recovery: the link adds a passkey to that person and keeps their role. ' +
      '422 `partner_users_limit` beyond 50 people and pending invitations.',
    params: LoginParams,
    body: InvitePartnerUserRequest,
    status: 201,
    answer: InvitationCreated,
    permission: 'partners.write',
    audit: 'partner.users.invite',
    uncheckedBecause: 'the link is answered once, to whoever makes the invitation: a proposal would show it to the approver instead',
    cli: 'partner invite',
    send: (login: string, body: InvitePartnerUserRequest) => ({ params: { login }, body }),
  }),
  remove: adminEndpoint({
    method: 'DELETE',
    path: ADMIN_PARTNER_USER_PATH,
    operationId: 'removePartnerUser',
    tags,
    summary: "Remove one of a partner's people from the portal: their passkeys and sessions end at once",
    description: 'For a person who left the partner when no partner-admin is left to remove them: unlike the partner\'s own removal, it may remove the last partner-admin (invite a new one then).',
    params: PartnerUserAdminParams,
    status: 204,
    answer: { type: 'null', description: 'Removed' },
    permission: 'partners.write',
    audit: 'partner.users.delete',
    uncheckedBecause: 'ending a departed person\'s access must never wait for a second operator; it gives nobody access',
    cli: 'partner remove-user',
    send: (login: string, id: string) => ({ params: { login, id } }),
  }),
};
