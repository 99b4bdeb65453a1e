import { sql, type Kysely, type Selectable } from 'kysely';
import type { Database, PartnersTable } from '../db/schema.js';
import type { PartnerKey } from './partner-keys.js';
import type { Partner } from './partner.js';

/** A partner to store: what the registry chooses (id, hash, normalized lists), before the database dates it. */
export type NewPartner = Omit<
  Partner,
  'tokenGeneration' | 'createdAt' | 'updatedAt' | 'authMethods' | 'requireBoundTokens' | 'jwks' | 'jwksUri' | 'jwksFetchedAt' | 'certificates' | 'subjectDn'
> &
  Partial<Pick<Partner, 'authMethods' | 'requireBoundTokens'>>;

export type PartnerChanges = Partial<
  Pick<Partner, 'passwordHash' | 'status' | 'ipAllowlist' | 'rewardTypes' | 'authMethods' | 'requireBoundTokens' | 'jwks' | 'jwksUri' | 'jwksFetchedAt'>
> &
  Partial<Pick<Partner, 'certificates' | 'subjectDn'>> & {
  /** Revokes every token issued so far. */
  revokeTokens?: boolean;
};

/** Partners in storage. Every method returns plain `Partner` objects; callers never see rows or SQL. */
export interface PartnerRepository {
  findByLogin(login: string): Promise<Partner | undefined>;
  findById(id: string): Promise<Partner | undefined>;
  list(): Promise<Partner[]>;
  count(): Promise<number>;
  /** Inserts the partner; returns `undefined` when the login is already taken. */
  insert(partner: NewPartner): Promise<Partner | undefined>;
  update(login: string, changes: PartnerChanges): Promise<Partner | undefined>;
  delete(login: string): Promise<boolean>;
}

export function createPartnerRepository(db: Kysely<Database>): PartnerRepository {
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
    async count() {
      const row = await db
        .selectFrom('partners')
        .select((eb) => eb.fn.countAll<string | number>().as('count'))
        .executeTakeFirstOrThrow();
      return Number(row.count);
    },
    async insert(partner) {
      const row = await db
        .insertInto('partners')
        .values({
          id: partner.id,
          login: partner.login,
          password_hash: partner.passwordHash,
          status: partner.status,
          ip_allowlist: JSON.stringify(partner.ipAllowlist),
          reward_types: JSON.stringify(partner.rewardTypes),
          ...(partner.authMethods !== undefined ? { auth_methods: JSON.stringify(partner.authMethods) } : {}),
          ...(partner.requireBoundTokens !== undefined ? { require_bound_tokens: partner.requireBoundTokens } : {}),
        })
        .onConflict((conflict) => conflict.column('login').doNothing())
        .returningAll()
        .executeTakeFirst();
      return row && toPartner(row);
    },
    async update(login, changes) {
      const row = await db
        .updateTable('partners')
        .set({
          ...(changes.passwordHash !== undefined ? { password_hash: changes.passwordHash } : {}),
          ...(changes.status !== undefined ? { status: changes.status } : {}),
          ...(changes.ipAllowlist !== undefined ? { ip_allowlist: JSON.stringify(changes.ipAllowlist) } : {}),
          ...(changes.rewardTypes !== undefined ? { reward_types: JSON.stringify(changes.rewardTypes) } : {}),
          ...(changes.authMethods !== undefined ? { auth_methods: JSON.stringify(changes.authMethods) } : {}),
          ...(changes.requireBoundTokens !== undefined ? { require_bound_tokens: changes.requireBoundTokens } : {}),
          ...(changes.jwks !== undefined ? { jwks: changes.jwks === null ? null : JSON.stringify(changes.jwks) } : {}),
          ...(changes.jwksUri !== undefined ? { jwks_uri: changes.jwksUri } : {}),
          ...(changes.jwksFetchedAt !== undefined ? { jwks_fetched_at: changes.jwksFetchedAt } : {}),
          ...(changes.certificates !== undefined ? { certificates: changes.certificates === null ? null : JSON.stringify(changes.certificates) } : {}),
          ...(changes.subjectDn !== undefined ? { subject_dn: changes.subjectDn } : {}),
          ...(changes.revokeTokens ? { token_generation: sql<number>`token_generation + 1` } : {}),
          updated_at: new Date(),
        })
        .where('login', '=', login)
        .returningAll()
        .executeTakeFirst();
      return row && toPartner(row);
    },
    async delete(login) {
      const rows = await db.deleteFrom('partners').where('login', '=', login).returning('id').execute();
      return rows.length > 0;
    },
  };
}

function toPartner(row: Selectable<PartnersTable>): Partner {
  return {
    id: row.id,
    login: row.login,
    passwordHash: row.password_hash,
    status: row.status,
    ipAllowlist: row.ip_allowlist,
    rewardTypes: row.reward_types,
    tokenGeneration: row.token_generation,
    authMethods: row.auth_methods,
    requireBoundTokens: row.require_bound_tokens,
    jwks: row.jwks as PartnerKey[] | null,
    jwksUri: row.jwks_uri,
    jwksFetchedAt: row.jwks_fetched_at,
    certificates: row.certificates,
    subjectDn: row.subject_dn,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}
