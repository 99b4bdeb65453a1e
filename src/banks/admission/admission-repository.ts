import { sql, type Kysely } from 'kysely';
import type { ActorRef } from '@partner-gateway/contract/admin-approvals';
import { column, fromColumns, json, toColumns, type Entity } from '../../db/field-map.js';
import type { Database } from '../../db/schema.js';
import type { ExclusionKind } from './exclusion-rules.js';

/** A registry bank waiting for an operator (migration 0031): its registry facts and when the registry first and last listed it. */
export const queuedBankFields = {
  bic: column<string>('bic').immutable(),
  registryName: column<string>('registry_name'),
  nameEn: column<string | null>('name_en'),
  sbpMemberId: column<string | null>('sbp_member_id'),
  firstSeenAt: column<Date>('first_seen_at').immutable(),
  lastSeenAt: column<Date>('last_seen_at'),
};
export type QueuedBank = Entity<typeof queuedBankFields>;

/** An exclusion (migration 0031): a BIC or a name pattern, why, and who set it when. */
export const exclusionFields = {
  id: column<number>('id').defaulted(0).immutable(),
  kind: column<ExclusionKind>('kind').immutable(),
  value: column<string>('value').immutable(),
  reason: column<string>('reason'),
  createdBy: json<ActorRef>('created_by').immutable(),
  createdAt: column<Date>('created_at').immutable(),
};
export type Exclusion = Entity<typeof exclusionFields>;

type Row<M> = { [K in keyof M as M[K] extends { column: infer C extends string } ? C : never]: unknown } & { [column: string]: unknown };
type Tables = { bank_admission_queue: Row<typeof queuedBankFields>; bank_exclusions: Row<typeof exclusionFields> };

/** What a registry reading leaves in the queue: the head offices it lists (upserted) and nothing else (the rest deleted). */
export interface QueueReading {
  /** SBP head offices the published list lacks, with their registry facts. */
  waiting: ReadonlyArray<{ bic: string; registryName: string; nameEn: string | null }>;
  seenAt: Date;
}

export interface AdmissionRepository {
  queue(): Promise<QueuedBank[]>;
  /** Makes the queue exactly `reading.waiting`: new ones first seen now, known ones' registry facts refreshed, the others gone. */
  replaceQueue(reading: QueueReading): Promise<void>;
  /** Drops these BICs from the queue (admitted). */
  dequeue(bics: readonly string[]): Promise<void>;
  /** The member ids the participant list gives queued banks, by BIC (admitting then carries them). */
  noteMemberIds(ids: ReadonlyArray<{ bic: string; memberId: string }>): Promise<void>;
  exclusions(): Promise<Exclusion[]>;
  /**
   * Adds the rules that do not exist yet (same kind and value) and returns those added, unless the rules would
   * then number more than `atMost`: then nothing is added and the answer is how many there are. Counted and
   * written under one table lock, so that operators excluding at the same moment (on any instance) cannot pass
   * the bound together.
   */
  exclude(rules: ReadonlyArray<Pick<Exclusion, 'kind' | 'value' | 'reason' | 'createdBy' | 'createdAt'>>, atMost: number): Promise<{ added: Exclusion[] } | { full: number }>;
  /** Deletes the BIC rules of these BICs; returns the BICs whose rule was deleted. */
  unexcludeBics(bics: readonly string[]): Promise<string[]>;
  /** Deletes one rule; false when it did not exist. */
  removeExclusion(id: number): Promise<boolean>;
}

const CHUNK = 500;

export function createAdmissionRepository(database: Kysely<Database>): AdmissionRepository {
  const db = database.withTables<Tables>();
  return {
    async queue() {
      const rows = await db.selectFrom('bank_admission_queue').selectAll().orderBy('first_seen_at').orderBy('bic').execute();
      return rows.map((row) => fromColumns(queuedBankFields, row));
    },
    replaceQueue({ waiting, seenAt }) {
      return database.transaction().execute(async (trx) => {
        const tx = trx.withTables<Tables>();
        const keep = new Set(waiting.map((bank) => bank.bic));
        const known = (await tx.selectFrom('bank_admission_queue').select('bic').execute()).map((row) => row.bic as string);
        const gone = known.filter((bic) => !keep.has(bic));
        for (let at = 0; at < gone.length; at += CHUNK) await tx.deleteFrom('bank_admission_queue').where('bic', 'in', gone.slice(at, at + CHUNK)).execute();
        for (let at = 0; at < waiting.length; at += CHUNK) {
          const rows = waiting.slice(at, at + CHUNK).map((bank) => toColumns(queuedBankFields, { ...bank, sbpMemberId: null, firstSeenAt: seenAt, lastSeenAt: seenAt }));
          await tx
            .insertInto('bank_admission_queue')
            .values(rows)
            .onConflict((conflict) =>
              conflict.column('bic').doUpdateSet((eb) => ({ registry_name: eb.ref('excluded.registry_name'), name_en: eb.ref('excluded.name_en'), last_seen_at: eb.ref('excluded.last_seen_at') })),
            )
            .execute();
        }
      });
    },
    async dequeue(bics) {
      if (bics.length > 0) await db.deleteFrom('bank_admission_queue').where('bic', 'in', [...bics]).execute();
    },
    async noteMemberIds(ids) {
      const queued = new Set((await db.selectFrom('bank_admission_queue').select('bic').execute()).map((row) => row.bic as string));
      for (const { bic, memberId } of ids) {
        if (queued.has(bic)) await db.updateTable('bank_admission_queue').set({ sbp_member_id: memberId }).where('bic', '=', bic).execute();
      }
    },
    async exclusions() {
      const rows = await db.selectFrom('bank_exclusions').selectAll().orderBy('id').execute();
      return rows.map((row) => fromColumns(exclusionFields, row));
    },
    async exclude(rules, atMost) {
      if (rules.length === 0) return { added: [] };
      return db.transaction().execute(async (trx) => {
        // Self-conflicting: one writer at a time counts and inserts; reads only wait for it.
        await sql`lock table bank_exclusions in share row exclusive mode`.execute(trx);
        const existing = await trx.selectFrom('bank_exclusions').select(['kind', 'value']).execute();
        const known = new Set(existing.map((row) => `${row.kind}\0${row.value}`));
        const adding = new Set(rules.map((rule) => `${rule.kind}\0${rule.value}`).filter((key) => !known.has(key))).size;
        if (existing.length + adding > atMost) return { full: existing.length };
        const rows = await trx
          .insertInto('bank_exclusions')
          .values(rules.map((rule) => toColumns(exclusionFields, rule)))
          .onConflict((conflict) => conflict.columns(['kind', 'value']).doNothing())
          .returningAll()
          .execute();
        return { added: rows.map((row) => fromColumns(exclusionFields, row)) };
      });
    },
    async unexcludeBics(bics) {
      if (bics.length === 0) return [];
      const rows = await db.deleteFrom('bank_exclusions').where('kind', '=', 'bic').where('value', 'in', [...bics]).returning('value').execute();
      return rows.map((row) => row.value as string);
    },
    async removeExclusion(id) {
      const result = await db.deleteFrom('bank_exclusions').where('id', '=', id).executeTakeFirst();
      return Number(result.numDeletedRows) > 0;
    },
  };
}
