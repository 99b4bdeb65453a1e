import { sql, type Kysely, type Selectable, type Transaction } from 'kysely';
import type { BanksTable, Database } from '../db/schema.js';
import type { BankChanges } from '@partner-gateway/contract/admin-banks';
import type { Bank } from './bank.js';
import { diffBanks } from './bank-diff.js';

export interface StoredBank extends Bank {
  position: number;
  updatedAt: Date;
}

export interface BankRepository {
  /** All banks in their stable order (position, then BIC). */
  list(): Promise<StoredBank[]>;
  count(): Promise<number>;
  /** Adds one bank at the end of the list; `undefined` when its BIC is already there. */
  add(bank: Bank): Promise<StoredBank | undefined>;
  remove(bic: string): Promise<boolean>;
  /**
   * In one transaction: `replace` makes the list exactly `banks`, in their order; `merge` adds new banks at
   * the end and updates existing ones in place, removing nothing.
   */
  apply(banks: readonly Bank[], mode: 'replace' | 'merge'): Promise<BankChanges>;
  /** Fills an empty registry with `banks`; does nothing when any bank exists. Safe across instances. */
  seedIfEmpty(banks: readonly Bank[]): Promise<boolean>;
}

const BANKS_LOCK = 7_210_002;

export function createBankRepository(db: Kysely<Database>): BankRepository {
  return {
    async list() {
      const rows = await db.selectFrom('banks').selectAll().orderBy('position').orderBy('bic').execute();
      return rows.map(toStoredBank);
    },
    async count() {
      const row = await db.selectFrom('banks').select((eb) => eb.fn.countAll<string | number>().as('count')).executeTakeFirstOrThrow();
      return Number(row.count);
    },
    async add(bank) {
      return db.transaction().execute(async (trx) => {
        await lock(trx);
        const position = await nextPosition(trx);
        const row = await trx
          .insertInto('banks')
          .values({ ...toRow(bank), position })
          .onConflict((conflict) => conflict.column('bic').doNothing())
          .returningAll()
          .executeTakeFirst();
        return row && toStoredBank(row);
      });
    },
    async remove(bic) {
      const rows = await db.deleteFrom('banks').where('bic', '=', bic).returning('bic').execute();
      return rows.length > 0;
    },
    async apply(banks, mode) {
      return db.transaction().execute(async (trx) => {
        await lock(trx);
        const current = (await trx.selectFrom('banks').selectAll().execute()).map(toStoredBank);
        const existing = new Map(current.map((bank) => [bank.bic, bank]));
        const changes = diffBanks(current, banks, mode);
        const changed = new Set(changes.changed);
        let position = mode === 'replace' ? 0 : await nextPosition(trx);
        const now = new Date();
        for (const [index, bank] of banks.entries()) {
          const row = toRow(bank);
          const before = existing.get(bank.bic);
          const targetPosition = mode === 'replace' ? index : (before?.position ?? position++);
          if (!before) {
            await trx.insertInto('banks').values({ ...row, position: targetPosition }).execute();
            continue;
          }
          if (changed.has(bank.bic) || before.position !== targetPosition) {
            await trx.updateTable('banks').set({ ...row, position: targetPosition, updated_at: now }).where('bic', '=', bank.bic).execute();
          }
        }
        if (changes.removed.length > 0) await trx.deleteFrom('banks').where('bic', 'in', changes.removed).execute();
        return changes;
      });
    },
    async seedIfEmpty(banks) {
      return db.transaction().execute(async (trx) => {
        await lock(trx);
        const any = await trx.selectFrom('banks').select('bic').limit(1).executeTakeFirst();
        if (any) return false;
        if (banks.length > 0) {
          await trx.insertInto('banks').values(banks.map((bank, position) => ({ ...toRow(bank), position }))).execute();
        }
        return true;
      });
    },
  };
}

/** Serializes bank-list writers (admin calls, seeding) across connections and instances. */
async function lock(trx: Transaction<Database>): Promise<void> {
  await sql`select pg_advisory_xact_lock(${BANKS_LOCK})`.execute(trx);
}

async function nextPosition(trx: Transaction<Database>): Promise<number> {
  const row = await trx.selectFrom('banks').select((eb) => eb.fn.max('position').as('max')).executeTakeFirst();
  return row?.max === null || row?.max === undefined ? 0 : Number(row.max) + 1;
}

function toRow(bank: Bank) {
  return { bic: bank.bic, name: bank.name, name_en: bank.nameEn ?? null, sbp_member_id: bank.sbpMemberId ?? null };
}

function toStoredBank(row: Selectable<BanksTable>): StoredBank {
  return {
    bic: row.bic,
    name: row.name,
    nameEn: row.name_en,
    sbpMemberId: row.sbp_member_id,
    position: row.position,
    updatedAt: row.updated_at,
  };
}
