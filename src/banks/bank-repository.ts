import type { Kysely, Transaction } from 'kysely';
import type { BankFieldSources, BankListEntry } from '@partner-gateway/contract/admin-bank-versions';
import { curatedTextOf } from '@partner-gateway/contract/bank-curated-fields';
import { column, fromColumns, json, toColumns, type Entity } from '../db/field-map.js';
import type { Database } from '../db/schema.js';

/**
 * A bank's stored fields (migrations 0001, 0023 and 0034): the one map that drives the banks table's writes and reads.
 * Registry facts: `registryName`, `sbpParticipant`. Curated: `name`, `nameEn`, `sbpMemberId`, `position`. From the
 * participant list: `participantsListed`. Where each curated or derived field came from: `sources`.
 */
export const bankFields = {
  bic: column<string>('bic').immutable(),
  name: column<string>('name'),
  nameEn: column<string | null>('name_en'),
  sbpMemberId: column<string | null>('sbp_member_id'),
  registryName: column<string | null>('registry_name'),
  sbpParticipant: column<boolean | null>('sbp_participant'),
  participantsListed: column<boolean | null>('participants_listed'),
  sources: json<BankFieldSources | null>('field_sources'),
  position: column<number>('position'),
  updatedAt: column<Date>('updated_at').defaulted(() => new Date()),
};

export type StoredBank = Entity<typeof bankFields>;

/** The columns an upsert of a listed bank sets: every field of the map but the immutable BIC. */
const UPDATED_COLUMNS = Object.values(bankFields)
  .filter((field) => !field.isImmutable)
  .map((field) => field.column);

type BanksTable = { [K in keyof typeof bankFields as (typeof bankFields)[K]['column']]: unknown } & { [column: string]: unknown };
export type BankTables = { banks: BanksTable };

/** The banks as the list holds them, in their stable order (position, then BIC). */
export async function readBanks(database: Kysely<Database> | Transaction<Database>): Promise<StoredBank[]> {
  const db = database.withTables<BankTables>();
  const rows = await db.selectFrom('banks').selectAll().orderBy('position').orderBy('bic').execute();
  return rows.map((row) => fromColumns(bankFields, row));
}

/** A stored bank as a version keeps it (without position and update time: its place in the list says the first). */
export function toListEntry(bank: StoredBank): BankListEntry {
  return {
    bic: bank.bic,
    name: bank.name,
    ...curatedTextOf(bank),
    registryName: bank.registryName,
    sbpParticipant: bank.sbpParticipant,
    ...(bank.participantsListed !== null ? { participantsListed: bank.participantsListed } : {}),
    ...(bank.sources ? { sources: bank.sources } : {}),
  };
}

/**
 * Makes the table exactly `next`, in its order (positions 0..n-1), inside the caller's transaction: banks left out
 * are deleted, the others written in one statement; `updatedAt` moves only for banks whose fields or place changed.
 */
export async function writeBanks(trx: Transaction<Database>, current: readonly StoredBank[], next: readonly BankListEntry[], at: Date): Promise<void> {
  const db = trx.withTables<BankTables>();
  const keep = new Set(next.map((bank) => bank.bic));
  const gone = current.filter((bank) => !keep.has(bank.bic)).map((bank) => bank.bic);
  if (gone.length > 0) await db.deleteFrom('banks').where('bic', 'in', gone).execute();
  const before = new Map(current.map((bank) => [bank.bic, bank]));
  const rows = next
    .map((bank, position) => ({ ...bank, position }))
    .filter((bank) => {
      const old = before.get(bank.bic);
      return !old || old.position !== bank.position || canonical(toListEntry(old)) !== canonical(toListEntry({ ...bank, participantsListed: bank.participantsListed ?? null, sources: bank.sources ?? null, updatedAt: at }));
    })
    .map((bank) => toColumns(bankFields, { ...bank, participantsListed: bank.participantsListed ?? null, sources: bank.sources ?? null, updatedAt: at }));
  // In chunks, so that a whole directory stays under PostgreSQL's 65 535 parameters per statement.
  for (let start = 0; start < rows.length; start += 1000) {
    await db
      .insertInto('banks')
      .values(rows.slice(start, start + 1000))
      .onConflict((conflict) =>
        // Every column the map may change, from the map: a field added to it is written here too.
        conflict.column('bic').doUpdateSet((eb) => Object.fromEntries(UPDATED_COLUMNS.map((name) => [name, eb.ref(`excluded.${name}`)]))),
      )
      .execute();
  }
}

/** JSON with every object's keys in order: a jsonb column gives keys back in an order of its own. */
function canonical(value: unknown): string {
  return JSON.stringify(value, (_key, inner: unknown) =>
    inner && typeof inner === 'object' && !Array.isArray(inner) ? Object.fromEntries(Object.entries(inner).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) : inner,
  );
}
