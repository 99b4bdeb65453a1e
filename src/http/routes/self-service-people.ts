import { SELF_INVITATIONS_PATH, SELF_USER_PATH, SELF_USERS_PATH } from '@partner-gateway/contract/paths';
import { ChangePartnerUserRequest, InvitationCreated, InvitePartnerUserRequest, MAX_PARTNER_USERS, PartnerUserList, PartnerUserParams, PartnerUserView } from '@partner-gateway/contract/partner-users';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { errors } from '../../errors.js';
import type { Gateway } from '../../gateway.js';
import { partnerCallErrors } from './error-body.js';
import { AUTH_ERRORS, AUTH_TEXT, CHANGE_ERRORS, CHANGE_TEXT, SECURITY } from './self-service-security.js';

const tags = ['Self-service'];
const UNKNOWN = { 404: [errors.partnerUserUnknown().description] };
const LAST_ADMIN = { 409: [errors.lastPartnerAdmin().description] };

/**
 * `/api/v1/self/users…`: the partner's people in the portal (docs/portal-security.md). Another partner's person's id
 * answers as an unknown one.
 */
export async function selfServicePeopleRoutes(untyped: FastifyInstance, { gateway }: { gateway: Gateway }): Promise<void> {
  const app = untyped.withTypeProvider<TypeBoxTypeProvider>();
  const people = gateway.selfService.people;
  app.get(
    SELF_USERS_PATH,
    {
      config: { audit: 'self.users' },
      schema: { operationId: 'selfListUsers', tags, summary: 'Your people in the portal, with their pending invitations', description: AUTH_TEXT, security: SECURITY, response: { 200: PartnerUserList, ...partnerCallErrors(AUTH_ERRORS) } },
    },
    async (request) => people.list(request.requestContext),
  );
  app.post(
    SELF_INVITATIONS_PATH,
    {
      config: { audit: 'self.users.invite' },
      schema: {
        operationId: 'selfInviteUser',
        tags,
        summary: 'Invite a person to your portal: a single-use link, valid 72 hours, answered once',
        description: `${AUTH_TEXT} ${CHANGE_TEXT} Inviting a name already registered is recovery: the link adds a passkey to that person and keeps their role.`,
        security: SECURITY,
        body: InvitePartnerUserRequest,
        response: { 201: InvitationCreated, ...partnerCallErrors({ ...CHANGE_ERRORS, 422: [errors.partnerUsersLimit('people and pending invitations', MAX_PARTNER_USERS).description] }) },
      },
    },
    async (request, reply) => reply.code(201).send(await people.invite(request.body, request.requestContext)),
  );
  app.put(
    SELF_USER_PATH,
    {
      config: { audit: 'self.users.update' },
      schema: {
        operationId: 'selfChangeUserRole',
        tags,
        summary: "Change a person's role; their sessions see it on their next request",
        description: `${AUTH_TEXT} ${CHANGE_TEXT}`,
        security: SECURITY,
        params: PartnerUserParams,
        body: ChangePartnerUserRequest,
        response: { 200: PartnerUserView, ...partnerCallErrors({ ...CHANGE_ERRORS, ...UNKNOWN, ...LAST_ADMIN }) },
      },
    },
    async (request) => people.changeRole(request.params.id, request.body, request.requestContext),
  );
  app.delete(
    SELF_USER_PATH,
    {
      config: { audit: 'self.users.delete' },
      schema: {
        operationId: 'selfRemoveUser',
        tags,
        summary: 'Remove a person: their passkeys and sessions end at once',
        description: `${AUTH_TEXT} ${CHANGE_TEXT}`,
        security: SECURITY,
        params: PartnerUserParams,
        response: { 204: { type: 'null', description: 'Removed' }, ...partnerCallErrors({ ...CHANGE_ERRORS, ...UNKNOWN, ...LAST_ADMIN }) },
      },
    },
    async (request, reply) => {
      await people.remove(request.params.id, request.requestContext);
      return reply.code(204).send(null);
    },
  );
}
