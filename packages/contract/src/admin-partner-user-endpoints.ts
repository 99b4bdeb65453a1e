import { adminEndpoint } from './admin-endpoint.js';
import { LoginParams } from './admin-partners.js';
import { InvitationCreated, InvitePartnerUserRequest, PartnerUserList } from './partner-users.js';
import { ADMIN_PARTNER_INVITATIONS_PATH, ADMIN_PARTNER_USERS_PATH } from './paths.js';

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
};
