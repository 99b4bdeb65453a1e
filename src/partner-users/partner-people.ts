import { INVITATION_TTL_SECONDS, MAX_PARTNER_USERS, type InvitationCreated, type InvitePartnerUserRequest, type PartnerUserList, type PartnerUserRole, type PartnerUserView, type PendingInvitation } from '@partner-gateway/contract/partner-users';
import { PORTAL_PATH } from '@partner-gateway/contract/paths';
import { errors } from '../errors.js';
import { newRandomId, secretHash } from '../operators/operator-secrets.js';
import type { PartnerUser, PartnerUserRepository } from './partner-user-repository.js';
import type { CreatedBy } from './created-by.js';
import type { Invitation, PortalRepository } from './portal-repository.js';

/** The partner a people change concerns: its id, and its login for the link and the audit. */
export interface PeoplePartner {
  id: string;
  login: string;
}

/**
 * A partner's people: listing them with their pending invitations, inviting (a new person, or a registered one who
 * lost their passkeys: recovery), changing a role and removing, never leaving the partner without a partner-admin.
 * Removing a person ends their sessions and deletes their passkeys at once (the rows cascade).
 *
 * @example
 * ```ts
 * const { url } = await people.invite(partner, { name: 'dev@acme.example', role: 'partner-developer' }, `partner-user:${principal.userId}`);
 * ```
 */
export interface PartnerPeople {
  list(partner: PeoplePartner): Promise<PartnerUserList>;
  invite(partner: PeoplePartner, body: InvitePartnerUserRequest, createdBy: CreatedBy): Promise<InvitationCreated>;
  changeRole(partner: PeoplePartner, userId: string, role: PartnerUserRole): Promise<{ before: PartnerUserView; after: PartnerUserView }>;
  /** Removes a person; `evenTheLastAdmin` (an operator's removal) lets the partner be left without a partner-admin. */
  remove(partner: PeoplePartner, userId: string, options?: { evenTheLastAdmin?: boolean }): Promise<PartnerUserView>;
}

export function createPartnerPeople(deps: { users: PartnerUserRepository; portal: PortalRepository; publicUrl: string; now: () => number }): PartnerPeople {
  const change = async (partner: PeoplePartner, userId: string, what: { role: PartnerUserRole } | 'remove', keepAnAdmin = true): Promise<PartnerUser> => {
    const before = await deps.users.change(partner.id, userId, what, keepAnAdmin);
    if (before === 'unknown') throw errors.partnerUserUnknown();
    if (before === 'last-admin') throw errors.lastPartnerAdmin();
    return before;
  };
  const passkeysOf = async (userId: string) => (await deps.users.passkeysOf(userId)).length;
  return {
    async list(partner) {
      const [users, invitations] = await Promise.all([deps.users.ofPartner(partner.id), deps.portal.pendingInvitations(partner.id, new Date(deps.now()))]);
      return { users: users.map((user) => toPartnerUserView(user, user.passkeys)), invitations: invitations.map(toPendingInvitation) };
    },
    async invite(partner, body, createdBy) {
      const at = deps.now();
      const existing = await deps.users.byName(partner.id, body.name);
      const token = newRandomId();
      const invitation = await deps.portal.insertInvitation({
        id: `inv_${newRandomId().slice(0, 24)}`,
        tokenHash: secretHash(token),
        partnerId: partner.id,
        userId: existing?.id ?? null,
        name: existing?.name ?? body.name,
        // Recovery keeps the person's role: a new link never raises anyone.
        role: existing?.role ?? body.role,
        createdBy,
        createdAt: new Date(at),
        expiresAt: new Date(at + INVITATION_TTL_SECONDS * 1000),
      }, existing ? undefined : MAX_PARTNER_USERS);
      // A recovery link is not counted: it adds a passkey, not a person.
      if (invitation === 'full') throw errors.partnerUsersLimit('people and pending invitations', MAX_PARTNER_USERS);
      return { invitation: toPendingInvitation(invitation), url: `${deps.publicUrl}${PORTAL_PATH}#invitation=${token}` };
    },
    async changeRole(partner, userId, role) {
      const before = await change(partner, userId, { role });
      const passkeys = await passkeysOf(userId);
      return { before: toPartnerUserView(before, passkeys), after: toPartnerUserView({ ...before, role }, passkeys) };
    },
    async remove(partner, userId, options = {}) {
      const passkeys = await passkeysOf(userId);
      return toPartnerUserView(await change(partner, userId, 'remove', !options.evenTheLastAdmin), passkeys);
    },
  };
}

/** A stored person as the wire shows them. */
export function toPartnerUserView(user: PartnerUser, passkeys: number): PartnerUserView {
  return { id: user.id, name: user.name, role: user.role, passkeys, createdAt: user.createdAt.toISOString(), lastSignInAt: user.lastSignInAt?.toISOString() ?? null };
}

function toPendingInvitation(invitation: Invitation): PendingInvitation {
  return { id: invitation.id, name: invitation.name, role: invitation.role, expiresAt: invitation.expiresAt.toISOString(), recovery: invitation.userId !== null };
}
