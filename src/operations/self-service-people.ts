import { SELF_INVITATIONS_PATH, SELF_USER_PATH, SELF_USERS_PATH } from '@partner-gateway/contract/paths';
import type { ChangePartnerUserRequest, InvitationCreated, InvitePartnerUserRequest, PartnerUserList, PartnerUserView } from '@partner-gateway/contract/partner-users';
import { authenticateSelf } from '../auth/steps/authenticate-self.js';
import type { CreatedBy } from '../partner-users/created-by.js';
import type { PartnerPeople } from '../partner-users/partner-people.js';
import type { Partner } from '../partners/partner.js';
import type { RequestContext } from '../request-context.js';

/** The partner's people (`/api/v1/self/users`): every partner user reads them; a partner-admin, or the partner's bound token, changes them. */
export interface SelfPeopleApi {
  list(context: RequestContext): Promise<PartnerUserList>;
  invite(body: InvitePartnerUserRequest, context: RequestContext): Promise<InvitationCreated>;
  changeRole(id: string, body: ChangePartnerUserRequest, context: RequestContext): Promise<PartnerUserView>;
  remove(id: string, context: RequestContext): Promise<void>;
}

/**
 * @example
 * ```ts
 * const people = createSelfPeopleApi({ ...deps, people: partnerUsers.people });
 * await people.invite({ name: 'dev@acme.example', role: 'partner-developer' }, request.requestContext);
 * ```
 */
export function createSelfPeopleApi(deps: Parameters<typeof authenticateSelf>[3] & { people: PartnerPeople }): SelfPeopleApi {
  const path = (id: string) => SELF_USER_PATH.replace(':id', encodeURIComponent(id));
  return {
    async list(context) {
      return deps.people.list(await authenticateSelf(context, 'GET', SELF_USERS_PATH, deps));
    },
    async invite(body, context) {
      const partner = await authenticateSelf(context, 'POST', SELF_INVITATIONS_PATH, deps, { changes: true });
      const created = await deps.people.invite(partner, body, createdBy(partner, context));
      context.audit.details = { invitation: created.invitation };
      return created;
    },
    async changeRole(id, body, context) {
      const partner = await authenticateSelf(context, 'PUT', path(id), deps, { changes: true });
      const { before, after } = await deps.people.changeRole(partner, id, body.role);
      context.audit.details = { before, after };
      return after;
    },
    async remove(id, context) {
      const partner = await authenticateSelf(context, 'DELETE', path(id), deps, { changes: true });
      context.audit.details = { before: await deps.people.remove(partner, id) };
    },
  };
}

/** Who an invitation is from: the signed-in person, or the partner's own automation. */
function createdBy(partner: Partner, context: RequestContext): CreatedBy {
  return context.portalUser ? `partner-user:${context.portalUser.userId}` : `partner:${partner.login}`;
}
