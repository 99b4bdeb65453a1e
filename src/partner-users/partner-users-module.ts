import type { Kysely } from 'kysely';
import type { InvitationCreated, InvitePartnerUserRequest, PartnerUserList, PartnerUserView } from '@partner-gateway/contract/partner-users';
import { errors } from '../errors.js';
import type { Database } from '../db/schema.js';
import type { PartnerRepository } from '../partners/partner-repository.js';
import { createPasskeyChallenges } from './passkey-challenges.js';
import { passkeySiteOf } from './passkey-site.js';
import { createPartnerPeople, type PartnerPeople } from './partner-people.js';
import { createPartnerUserRepository } from './partner-user-repository.js';
import { createPortalRepository } from './portal-repository.js';
import { createPortalSignIn, type PortalSignIn } from './portal-sign-in.js';

/** A partner's people and their portal sessions, composed (createGateway). */
export interface PartnerUsers {
  signIn: PortalSignIn;
  people: PartnerPeople;
  /** What operators do (GET and POST /admin/v1/partners/{login}/users…): the same, for a partner they name. */
  admin: {
    list(login: string): Promise<PartnerUserList>;
    invite(login: string, body: InvitePartnerUserRequest, operatorId: string): Promise<InvitationCreated>;
    /** Removes one of the partner's people, the last partner-admin too; what they were. */
    remove(login: string, userId: string): Promise<PartnerUserView>;
  };
  /** Deletes spent challenges, ended sessions and long-expired invitations (run with the other purges). */
  purge(): Promise<void>;
}

/**
 * @example
 * ```ts
 * const partnerUsers = createPartnerUsers(handle.db, { publicUrl, masterKey, maxAgeMs, idleMs, now, partners });
 * ```
 */
export function createPartnerUsers(
  db: Kysely<Database>,
  options: { publicUrl: string; masterKey: Uint8Array; maxAgeMs: number; idleMs: number; now: () => number; partners: Pick<PartnerRepository, 'findById' | 'findByLogin'> },
): PartnerUsers {
  const users = createPartnerUserRepository(db);
  const portal = createPortalRepository(db);
  const { now } = options;
  const site = passkeySiteOf(options.publicUrl);
  // The link names the address passkeys work at (localhost for a loopback PUBLIC_URL).
  const people = createPartnerPeople({ users, portal, publicUrl: site?.origin ?? options.publicUrl, now });
  const partnerOf = async (login: string) => (await options.partners.findByLogin(login)) ?? Promise.reject(errors.partnerNotFound(login));
  return {
    signIn: createPortalSignIn({
      users,
      portal,
      partners: options.partners,
      challenges: createPasskeyChallenges(options.masterKey, now),
      site,
      maxAgeMs: options.maxAgeMs,
      idleMs: options.idleMs,
      now,
    }),
    people,
    admin: {
      list: async (login) => people.list(await partnerOf(login)),
      invite: async (login, body, operatorId) => people.invite(await partnerOf(login), body, `operator:${operatorId}`),
      remove: async (login, userId) => people.remove(await partnerOf(login), userId, { evenTheLastAdmin: true }),
    },
    purge: () => portal.purge(new Date(now()), new Date(now() - options.idleMs)),
  };
}
