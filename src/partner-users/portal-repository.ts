import type { Kysely } from 'kysely';
import type { PartnerUserRole } from '@partner-gateway/contract/partner-users';
import { column, fromColumns, toColumns, type Entity, type NewEntity } from '../db/field-map.js';
import type { Database } from '../db/schema.js';

/** An invitation's stored fields (migration 0037): found by its secret's hash, never the secret. */
export const invitationFields = {
  id: column<string>('id').immutable(),
  tokenHash: column<string>('token_hash').immutable(),
  partnerId: column<string>('partner_id').immutable(),
  /** The person it recovers (a new passkey for someone registered); null for a new person. */
  userId: column<string | null>('user_id').immutable(),
  name: column<string>('name').immutable(),
  role: column<PartnerUserRole>('role').immutable(),
  createdBy: column<string>('created_by').immutable(),
  createdAt: column<Date>('created_at').immutable(),
  expiresAt: column<Date>('expires_at').immutable(),
  usedAt: column<Date | null>('used_at').defaulted(null),
};
export type Invitation = Entity<typeof invitationFields>;

/** A portal session's stored fields: found by the hash of the cookie's id (its CSRF token is derived from the id, not stored). */
export const portalSessionFields = {
  idHash: column<string>('id_hash').immutable(),
  userId: column<string>('user_id').immutable(),
  createdAt: column<Date>('created_at').immutable(),
  lastSeenAt: column<Date>('last_seen_at'),
  expiresAt: column<Date>('expires_at').immutable(),
};
export type PortalSessionRow = Entity<typeof portalSessionFields>;

type Tables = {
  partners: { id: string };
  partner_users: { partner_id: string };
  partner_invitations: { [column: string]: unknown };
  portal_challenges: { [column: string]: unknown };
  portal_sessions: { [column: string]: unknown };
};

/** Invitations, WebAuthn challenges and sessions of the portal: what a sign-in reads and spends. */
export interface PortalRepository {
  /**
   * Stores an invitation, under a lock on its partner's row so that concurrent invitations cannot pass a limit
   * together: with `limit`, 'full' when the partner's people and pending invitations already number that many.
   */
  insertInvitation(invitation: NewEntity<typeof invitationFields>, limit?: number): Promise<Invitation | 'full'>;
  /** The invitation whose secret hashes to `tokenHash`, unused and unexpired at `at`. */
  openInvitation(tokenHash: string, at: Date): Promise<Invitation | undefined>;
  /** Marks it used, once: false when another request used it first or it expired meanwhile. */
  useInvitation(id: string, at: Date): Promise<boolean>;
  /** The partner's unused, unexpired invitations. */
  pendingInvitations(partnerId: string, at: Date): Promise<Invitation[]>;
  /** Spends a challenge (kept until `expiresAt`, when it could no longer be answered anyway): true the first time only, on any instance. */
  spendChallenge(challenge: string, expiresAt: Date): Promise<boolean>;
  insertSession(session: NewEntity<typeof portalSessionFields>): Promise<void>;
  /** The session, when neither timeout has passed at `at`; its last use moves to `at`. */
  touchSession(idHash: string, at: Date, idleSince: Date): Promise<PortalSessionRow | undefined>;
  endSession(idHash: string): Promise<void>;
  endSessionsOf(userId: string): Promise<void>;
  /** Deletes what has expired: challenges, sessions past a timeout, invitations a week past their end. */
  purge(at: Date, idleSince: Date): Promise<void>;
}

export function createPortalRepository(database: Kysely<Database>): PortalRepository {
  const db = database.withTables<Tables>();
  return {
    async insertInvitation(invitation, limit) {
      return db.transaction().execute(async (trx) => {
        await trx.selectFrom('partners').select('id').where('id', '=', invitation.partnerId).forUpdate().execute();
        if (limit !== undefined) {
          const people = await trx.selectFrom('partner_users').select((eb) => eb.fn.countAll<string>().as('n')).where('partner_id', '=', invitation.partnerId).executeTakeFirstOrThrow();
          const pending = await trx
            .selectFrom('partner_invitations')
            .select((eb) => eb.fn.countAll<string>().as('n'))
            .where('partner_id', '=', invitation.partnerId)
            .where('used_at', 'is', null)
            .where('expires_at', '>', invitation.createdAt)
            .executeTakeFirstOrThrow();
          if (Number(people.n) + Number(pending.n) >= limit) return 'full';
        }
        return fromColumns(invitationFields, await trx.insertInto('partner_invitations').values(toColumns(invitationFields, invitation)).returningAll().executeTakeFirstOrThrow());
      });
    },
    async openInvitation(tokenHash, at) {
      const row = await db.selectFrom('partner_invitations').selectAll().where('token_hash', '=', tokenHash).where('used_at', 'is', null).where('expires_at', '>', at).executeTakeFirst();
      return row && fromColumns(invitationFields, row);
    },
    async useInvitation(id, at) {
      const result = await db.updateTable('partner_invitations').set({ used_at: at }).where('id', '=', id).where('used_at', 'is', null).where('expires_at', '>', at).executeTakeFirst();
      return Number(result.numUpdatedRows) > 0;
    },
    async pendingInvitations(partnerId, at) {
      const rows = await db.selectFrom('partner_invitations').selectAll().where('partner_id', '=', partnerId).where('used_at', 'is', null).where('expires_at', '>', at).orderBy('created_at').execute();
      return rows.map((row) => fromColumns(invitationFields, row));
    },
    async spendChallenge(challenge, expiresAt) {
      const spent = await db.insertInto('portal_challenges').values({ challenge, expires_at: expiresAt }).onConflict((oc) => oc.column('challenge').doNothing()).returning('challenge').executeTakeFirst();
      return spent !== undefined;
    },
    async insertSession(session) {
      await db.insertInto('portal_sessions').values(toColumns(portalSessionFields, session)).execute();
    },
    async touchSession(idHash, at, idleSince) {
      const row = await db
        .updateTable('portal_sessions')
        .set({ last_seen_at: at })
        .where('id_hash', '=', idHash)
        .where('expires_at', '>', at)
        .where('last_seen_at', '>', idleSince)
        .returningAll()
        .executeTakeFirst();
      return row && fromColumns(portalSessionFields, row);
    },
    async endSession(idHash) {
      await db.deleteFrom('portal_sessions').where('id_hash', '=', idHash).execute();
    },
    async endSessionsOf(userId) {
      await db.deleteFrom('portal_sessions').where('user_id', '=', userId).execute();
    },
    async purge(at, idleSince) {
      await db.deleteFrom('portal_challenges').where('expires_at', '<=', at).execute();
      await db.deleteFrom('portal_sessions').where((eb) => eb.or([eb('expires_at', '<=', at), eb('last_seen_at', '<=', idleSince)])).execute();
      await db.deleteFrom('partner_invitations').where('expires_at', '<=', new Date(at.getTime() - 7 * 86_400_000)).execute();
    },
  };
}
