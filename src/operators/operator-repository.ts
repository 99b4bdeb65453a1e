import { sql, type Kysely } from 'kysely';
import type { OperatorStatus } from '@partner-gateway/contract/admin-operators';
import type { OperatorRole } from '@partner-gateway/contract/admin-permissions';
import { column, fromColumns, toColumns, type Entity, type EntityChanges, type NewEntity } from '../db/field-map.js';
import type { Database } from '../db/schema.js';

/**
 * An operator's stored fields (migration 0020): the one map that drives the operator's insert, update and read,
 * and its type (`Operator`).
 */
export const operatorFields = {
  id: column<string>('id').immutable(),
  name: column<string>('name'),
  role: column<OperatorRole>('role'),
  status: column<OperatorStatus>('status').defaulted('active'),
  /** The identity provider and subject of an operator created by single sign-on; null for a local operator. */
  ssoIssuer: column<string | null>('sso_issuer').defaulted(null).immutable(),
  ssoSubject: column<string | null>('sso_subject').defaulted(null).immutable(),
  /** Who created it (an operator id, or `bootstrap`); null when single sign-on did. */
  createdBy: column<string | null>('created_by').defaulted(null).immutable(),
  createdAt: column<Date>('created_at').defaulted(() => new Date()).immutable(),
  updatedAt: column<Date>('updated_at').defaulted(() => new Date()).immutable(),
  /** Written in batches by the usage recorder, never by an update through the map. */
  lastUsedAt: column<Date | null>('last_used_at').defaulted(null).immutable(),
  /** The last sign-in through single sign-on (migration 0028): an SSO operator's tokens stop working OIDC_TOKEN_SIGN_IN_MAX_AGE after it. */
  lastSsoSignInAt: column<Date | null>('last_sso_sign_in_at').defaulted(null),
  /** When single sign-on disabled the operator (its subject came back unmapped); null otherwise, and once anyone sets the status. */
  ssoDisabledAt: column<Date | null>('sso_disabled_at').defaulted(null),
};

export type OperatorFields = typeof operatorFields;
export type Operator = Entity<OperatorFields>;
export type NewOperator = NewEntity<OperatorFields>;
export type OperatorChanges = EntityChanges<OperatorFields>;

/** Operators in storage, as plain `Operator` objects. */
export interface OperatorRepository {
  findById(id: string): Promise<Operator | undefined>;
  findBySso(issuer: string, subject: string): Promise<Operator | undefined>;
  list(): Promise<Operator[]>;
  /** Inserts the operator; `undefined` when its name (compared without case) or SSO identity is taken. */
  insert(operator: NewOperator): Promise<Operator | undefined>;
  /** `undefined` for an unknown id; throws the unique violation when the new name is taken. */
  update(id: string, changes: OperatorChanges): Promise<Operator | undefined>;
  /** Whether another operator than `exceptId` has this name (compared without case). */
  nameTaken(name: string, exceptId?: string): Promise<boolean>;
  /** Records last uses: the latest of each operator's, never moving one back. */
  recordUse(uses: ReadonlyArray<{ id: string; at: Date }>): Promise<void>;
}

type OperatorsTable = { [K in keyof OperatorFields as OperatorFields[K]['column']]: unknown } & { [column: string]: unknown };

export function createOperatorRepository(database: Kysely<Database>): OperatorRepository {
  const db = database.withTables<{ operators: OperatorsTable }>();
  const toOperator = (row: Record<string, unknown>) => fromColumns(operatorFields, row);
  return {
    async findById(id) {
      const row = await db.selectFrom('operators').selectAll().where('id', '=', id).executeTakeFirst();
      return row && toOperator(row);
    },
    async findBySso(issuer, subject) {
      const row = await db.selectFrom('operators').selectAll().where('sso_issuer', '=', issuer).where('sso_subject', '=', subject).executeTakeFirst();
      return row && toOperator(row);
    },
    async list() {
      const rows = await db.selectFrom('operators').selectAll().orderBy(sql`lower(name)`).execute();
      return rows.map(toOperator);
    },
    async insert(operator) {
      const row = await db.insertInto('operators').values(toColumns(operatorFields, operator)).onConflict((conflict) => conflict.doNothing()).returningAll().executeTakeFirst();
      return row && toOperator(row);
    },
    async update(id, changes) {
      const row = await db
        .updateTable('operators')
        .set({ ...toColumns(operatorFields, changes, { update: true }), updated_at: new Date() })
        .where('id', '=', id)
        .returningAll()
        .executeTakeFirst();
      return row && toOperator(row);
    },
    async nameTaken(name, exceptId) {
      let select = db.selectFrom('operators').select('id').where(sql`lower(name)`, '=', name.toLowerCase());
      if (exceptId !== undefined) select = select.where('id', '<>', exceptId);
      return (await select.executeTakeFirst()) !== undefined;
    },
    async recordUse(uses) {
      if (uses.length === 0) return;
      await sql`update operators set last_used_at = greatest(coalesce(operators.last_used_at, used.at), used.at)
        from jsonb_to_recordset(${JSON.stringify(uses)}::jsonb) as used(id text, at timestamptz)
        where operators.id = used.id`.execute(db);
    },
  };
}
