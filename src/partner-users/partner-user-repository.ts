import type { Kysely } from 'kysely';
import type { PartnerUserRole } from '@partner-gateway/contract/partner-users';
import { bigintNumber, column, fromColumns, json, toColumns, type Entity, type NewEntity } from '../db/field-map.js';
import type { Database } from '../db/schema.js';

/** A partner user's stored fields (migration 0037). */
export const partnerUserFields = {
  id: column<string>('id').immutable(),
  partnerId: column<string>('partner_id').immutable(),
  name: column<string>('name'),
  role: column<PartnerUserRole>('role'),
  /** Who invited them: `operator:<id>`, `partner-user:<id>` or `partner:<login>` (the partner's automation). */
  createdBy: column<string>('created_by').immutable(),
  createdAt: column<Date>('created_at').immutable(),
  lastSignInAt: column<Date | null>('last_sign_in_at').defaulted(null),
};
export type PartnerUser = Entity<typeof partnerUserFields>;

/** A passkey's stored fields: the credential's public key (COSE), never a secret. */
export const passkeyFields = {
  id: column<string>('id').immutable(),
  userId: column<string>('user_id').immutable(),
  publicKey: column<Uint8Array>('public_key').immutable(),
  counter: bigintNumber('counter'),
  transports: json<string[]>('transports'),
  createdAt: column<Date>('created_at').immutable(),
  lastUsedAt: column<Date | null>('last_used_at').defaulted(null),
};
export type Passkey = Entity<typeof passkeyFields>;

type Tables = { partner_users: { [column: string]: unknown }; partner_passkeys: { [column: string]: unknown } };

/** A partner user with how many passkeys they hold. */
export type PartnerUserWithPasskeys = PartnerUser & { passkeys: number };

export interface PartnerUserRepository {
  insert(user: NewEntity<typeof partnerUserFields>): Promise<PartnerUser>;
  get(id: string): Promise<PartnerUser | undefined>;
  /** The partner's person named `name` (case-insensitive), if any. */
  byName(partnerId: string, name: string): Promise<PartnerUser | undefined>;
  /** The partner's people, oldest first, each with their passkey count. */
  ofPartner(partnerId: string): Promise<PartnerUserWithPasskeys[]>;
  /**
   * Changes one of the partner's people's role, or removes them, under a lock on the partner's people, so that two
   * admins demoting each other at once cannot leave the partner without one: `last-admin` when the change would,
   * `unknown` when the person is not the partner's. Answers the person as they were.
   */
  change(partnerId: string, userId: string, change: { role: PartnerUserRole } | 'remove', keepAnAdmin?: boolean): Promise<PartnerUser | 'unknown' | 'last-admin'>;
  signedIn(id: string, at: Date): Promise<void>;
  /** Removes a person (their passkeys and sessions go with them); true when they existed. */
  remove(id: string): Promise<boolean>;
  addPasskey(passkey: NewEntity<typeof passkeyFields>): Promise<void>;
  passkey(id: string): Promise<Passkey | undefined>;
  passkeysOf(userId: string): Promise<Passkey[]>;
  /**
   * Records a passkey's use, and its new signature counter, only when the stored counter is still `seen`: two
   * sign-ins racing with one counter value, the mark of a cloned authenticator, leave one of them false.
   */
  usePasskey(id: string, seen: number, counter: number, at: Date): Promise<boolean>;
}

export function createPartnerUserRepository(database: Kysely<Database>): PartnerUserRepository {
  const db = database.withTables<Tables>();
  const toUser = (row: Record<string, unknown>) => fromColumns(partnerUserFields, row);
  const toPasskey = (row: Record<string, unknown>) => fromColumns(passkeyFields, row);
  return {
    async insert(user) {
      return toUser(await db.insertInto('partner_users').values(toColumns(partnerUserFields, user)).returningAll().executeTakeFirstOrThrow());
    },
    async get(id) {
      const row = await db.selectFrom('partner_users').selectAll().where('id', '=', id).executeTakeFirst();
      return row && toUser(row);
    },
    async byName(partnerId, name) {
      const row = await db
        .selectFrom('partner_users')
        .selectAll()
        .where('partner_id', '=', partnerId)
        .where((eb) => eb(eb.fn('lower', ['name']), '=', name.toLowerCase()))
        .executeTakeFirst();
      return row && toUser(row);
    },
    async ofPartner(partnerId) {
      const rows = await db
        .selectFrom('partner_users')
        .selectAll('partner_users')
        .select((eb) => eb.selectFrom('partner_passkeys').select((inner) => inner.fn.countAll<string>().as('n')).whereRef('partner_passkeys.user_id', '=', 'partner_users.id').as('passkey_count'))
        .where('partner_id', '=', partnerId)
        .orderBy('created_at')
        .orderBy('id')
        .execute();
      return rows.map((row) => ({ ...toUser(row), passkeys: Number(row.passkey_count) }));
    },
    async change(partnerId, userId, change, keepAnAdmin = true) {
      return db.transaction().execute(async (trx) => {
        const rows = (await trx.selectFrom('partner_users').selectAll().where('partner_id', '=', partnerId).orderBy('id').forUpdate().execute()).map(toUser);
        const before = rows.find((user) => user.id === userId);
        if (!before) return 'unknown';
        const staysAdmin = change !== 'remove' && change.role === 'partner-admin';
        const otherAdmins = rows.filter((user) => user.id !== userId && user.role === 'partner-admin').length;
        if (keepAnAdmin && before.role === 'partner-admin' && !staysAdmin && otherAdmins === 0) return 'last-admin';
        if (change === 'remove') await trx.deleteFrom('partner_users').where('id', '=', userId).execute();
        else await trx.updateTable('partner_users').set(toColumns(partnerUserFields, change, { update: true })).where('id', '=', userId).execute();
        return before;
      });
    },
    async signedIn(id, at) {
      await db.updateTable('partner_users').set(toColumns(partnerUserFields, { lastSignInAt: at }, { update: true })).where('id', '=', id).execute();
    },
    async remove(id) {
      const result = await db.deleteFrom('partner_users').where('id', '=', id).executeTakeFirst();
      return Number(result.numDeletedRows) > 0;
    },
    async addPasskey(passkey) {
      await db.insertInto('partner_passkeys').values(toColumns(passkeyFields, passkey)).execute();
    },
    async passkey(id) {
      const row = await db.selectFrom('partner_passkeys').selectAll().where('id', '=', id).executeTakeFirst();
      return row && toPasskey(row);
    },
    async passkeysOf(userId) {
      const rows = await db.selectFrom('partner_passkeys').selectAll().where('user_id', '=', userId).orderBy('created_at').execute();
      return rows.map(toPasskey);
    },
    async usePasskey(id, seen, counter, at) {
      const result = await db
        .updateTable('partner_passkeys')
        .set(toColumns(passkeyFields, { counter, lastUsedAt: at }, { update: true }))
        .where('id', '=', id)
        .where('counter', '=', seen)
        .executeTakeFirst();
      return Number(result.numUpdatedRows) > 0;
    },
  };
}
