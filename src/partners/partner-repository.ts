import { sql, type Kysely } from 'kysely';
import type { AuthMethod, PartnerStatus } from '@partner-gateway/contract/admin-partners';
import { column, fromColumns, json, toColumns, type Entity, type EntityChanges, type NewEntity } from '../db/field-map.js';
import type { Database } from '../db/schema.js';
import type { RegisteredCertificate } from './partner-certificates.js';
import type { PartnerKey } from './partner-keys.js';

/**
 * A partner's stored fields, each with its column and, for a column the database fills, its default (see the
 * migrations): the one map that drives the partner's insert, update and read, and its type (`Partner`, in
 * partner.ts). A field added here is stored, read and changeable at once, and shown by the admin API when the
 * contract's PartnerView names it (toPartnerView copies same-named fields).
 */
export const partnerFields = {
  id: column<string>('id').immutable(),
  login: column<string>('login').immutable(),
  passwordHash: column<string>('password_hash'),
  /** The API password before the partner's last rotation, accepted beside the new one until `previousPasswordUntil`. */
  previousPasswordHash: column<string | null>('previous_password_hash').defaulted(null),
  previousPasswordUntil: column<Date | null>('previous_password_until').defaulted(null),
  status: column<PartnerStatus>('status'),
  /** Normalized CIDRs (`10.0.0.0/24`, `2001:db8::/32`); an empty list allows no address. */
  ipAllowlist: json<string[]>('ip_allowlist'),
  rewardTypes: json<string[]>('reward_types'),
  /** An operator lets the partner change `ipAllowlist` itself (`PUT /api/v1/self/allowlist`). */
  selfManagedAllowlist: column<boolean>('self_managed_allowlist').defaulted(false),
  /** Moves on when the partner is blocked or gets a new password (`revokeTokens`): every token issued before stops working. */
  tokenGeneration: column<number>('token_generation').defaulted(0).immutable(),
  /** How the partner may authenticate; without `password`, its password is refused everywhere. */
  authMethods: json<AuthMethod[]>('auth_methods').defaulted(() => ['password']),
  /** Every token it gets must be bound to its key (DPoP) or certificate: no bearer token is ever issued to it. */
  requireBoundTokens: column<boolean>('require_bound_tokens').defaulted(false),
  /** Its public keys: registered, or the set last fetched from `jwksUri`; null when it has none. */
  jwks: json<PartnerKey[] | null>('jwks').defaulted(null),
  /** Where the partner publishes its keys, when it does (the keys are then fetched, see createRemoteJwks). */
  jwksUri: column<string | null>('jwks_uri').defaulted(null),
  /** When a fetch of `jwksUri` last succeeded. */
  jwksFetchedAt: column<Date | null>('jwks_fetched_at').defaulted(null),
  /** Its registered client certificates (self_signed_tls_client_auth); null when it has none. */
  certificates: json<RegisteredCertificate[] | null>('certificates').defaulted(null),
  /** The subject DN (normalized RFC 4514) of its CA-issued certificates (tls_client_auth); null when none. */
  subjectDn: column<string | null>('subject_dn').defaulted(null),
  createdAt: column<Date>('created_at').defaulted(() => new Date()).immutable(),
  /** Set by every update. */
  updatedAt: column<Date>('updated_at').defaulted(() => new Date()).immutable(),
};

export type PartnerFields = typeof partnerFields;
type StoredPartner = Entity<PartnerFields>;

/** A partner to store: what the registry chooses (id, hash, normalized lists), before the database dates it. */
export type NewPartner = NewEntity<PartnerFields>;

/** What an update changes: any stored field but the identity and the dates, and whether every token issued so far is revoked. */
export type PartnerChanges = EntityChanges<PartnerFields> & {
  /** Revokes every token issued so far (moves the token generation on). */
  revokeTokens?: boolean;
};

/** Partners in storage. Every method returns plain `Partner` objects; callers never see rows or SQL. */
export interface PartnerRepository {
  findByLogin(login: string): Promise<StoredPartner | undefined>;
  findById(id: string): Promise<StoredPartner | undefined>;
  list(): Promise<StoredPartner[]>;
  /**
   * The partners holding a reward type `catalogue` does not list, by login: their logins and stored types only,
   * filtered by the database (a start-up check on 100 000 partners must not read every partner into memory).
   */
  withRewardTypesOutside(catalogue: readonly string[]): Promise<Array<Pick<StoredPartner, 'login' | 'rewardTypes'>>>;
  count(): Promise<number>;
  /** Inserts the partner; returns `undefined` when the login is already taken. */
  insert(partner: NewPartner): Promise<StoredPartner | undefined>;
  /**
   * Changes the partner; undefined when there is none, or when `ifUpdatedAt` is given and the partner was
   * updated since (a read-modify-write that another change overtook: nothing is written).
   */
  update(login: string, changes: PartnerChanges, options?: { ifUpdatedAt?: Date }): Promise<StoredPartner | undefined>;
  delete(login: string): Promise<boolean>;
}

/** The partners table as the map describes it: its columns, read back through the map. */
type PartnersTable = { [K in keyof PartnerFields as PartnerFields[K]['column']]: unknown } & { [column: string]: unknown };

export function createPartnerRepository(database: Kysely<Database>): PartnerRepository {
  const db = database.withTables<{ partners: PartnersTable }>();
  const toPartner = (row: Record<string, unknown>) => fromColumns(partnerFields, row);
  return {
    async findByLogin(login) {
      const row = await db.selectFrom('partners').selectAll().where('login', '=', login).executeTakeFirst();
      return row && toPartner(row);
    },
    async findById(id) {
      const row = await db.selectFrom('partners').selectAll().where('id', '=', id).executeTakeFirst();
      return row && toPartner(row);
    },
    async list() {
      const rows = await db.selectFrom('partners').selectAll().orderBy('login').execute();
      return rows.map(toPartner);
    },
    async withRewardTypesOutside(catalogue) {
      const { login, rewardTypes } = partnerFields;
      const rows = await db
        .selectFrom('partners')
        .select([login.column, rewardTypes.column])
        .where(sql<boolean>`not (${sql.ref(rewardTypes.column)} <@ ${rewardTypes.write([...catalogue])}::jsonb)`)
        .orderBy('login')
        .execute();
      return rows.map((row) => ({ login: login.read(row[login.column]), rewardTypes: rewardTypes.read(row[rewardTypes.column]) }));
    },
    async count() {
      const row = await db.selectFrom('partners').select((eb) => eb.fn.countAll<string | number>().as('count')).executeTakeFirstOrThrow();
      return Number(row.count);
    },
    async insert(partner) {
      const row = await db
        .insertInto('partners')
        .values(toColumns(partnerFields, partner))
        .onConflict((conflict) => conflict.column('login').doNothing())
        .returningAll()
        .executeTakeFirst();
      return row && toPartner(row);
    },
    async update(login, { revokeTokens, ...changes }, options = {}) {
      let update = db
        .updateTable('partners')
        .set({
          ...toColumns(partnerFields, changes, { update: true }),
          ...(revokeTokens ? { token_generation: sql<number>`token_generation + 1` } : {}),
          updated_at: new Date(),
        })
        .where('login', '=', login);
      // Compared to the millisecond a Date holds: a row dated by the database (microseconds) still matches its read.
      if (options.ifUpdatedAt !== undefined) update = update.where(sql<boolean>`date_trunc('milliseconds', updated_at) = ${options.ifUpdatedAt}`);
      const row = await update.returningAll().executeTakeFirst();
      return row && toPartner(row);
    },
    async delete(login) {
      const rows = await db.deleteFrom('partners').where('login', '=', login).returning('id').execute();
      return rows.length > 0;
    },
  };
}
