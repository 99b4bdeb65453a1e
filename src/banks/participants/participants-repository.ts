import { sql, type Kysely } from 'kysely';
import type { ActorRef } from '@partner-gateway/contract/admin-approvals';
import type { ParticipantsMatching, ParticipantsRunOutcome } from '@partner-gateway/contract/admin-bank-participants';
import { column, fromColumns, json, toColumns, type Entity, type NewEntity } from '../../db/field-map.js';
import type { DatabaseKind } from '../../db/database.js';
import type { Database } from '../../db/schema.js';
import type { NewProposal } from './match-participants.js';
import { runExclusively } from '../../db/run-exclusively.js';

/** A name match (migration 0034): pending until an operator confirms (applied, then deleted) or rejects it (kept). */
export const proposalFields = {
  bic: column<string>('bic').immutable(),
  memberId: column<string>('member_id'),
  participantName: column<string>('participant_name'),
  participantNameEn: column<string | null>('participant_name_en'),
  bankName: column<string>('bank_name'),
  status: column<'pending' | 'rejected'>('status'),
  proposedAt: column<Date>('proposed_at'),
  decidedBy: json<ActorRef | null>('decided_by'),
  decidedAt: column<Date | null>('decided_at'),
};
export type StoredProposal = Entity<typeof proposalFields>;

/** A reading of the participant list (migration 0034): an import or a sync run, its outcome and its matching. */
export const participantRunFields = {
  id: column<number>('id').defaulted(0).immutable(),
  startedAt: column<Date>('started_at').immutable(),
  finishedAt: column<Date>('finished_at').immutable(),
  trigger: column<'import' | 'schedule' | 'manual'>('trigger').immutable(),
  author: json<ActorRef>('author').immutable(),
  source: column<string | null>('source').immutable(),
  outcome: column<ParticipantsRunOutcome>('outcome').immutable(),
  error: column<string | null>('error').immutable(),
  version: column<number | null>('version').immutable(),
  matching: json<ParticipantsMatching | null>('matching').immutable(),
};
export type ParticipantRun = Entity<typeof participantRunFields>;

type Row<M> = { [K in keyof M as M[K] extends { column: infer C extends string } ? C : never]: unknown } & { [column: string]: unknown };
type Tables = { bank_participant_proposals: Row<typeof proposalFields>; bank_participant_runs: Row<typeof participantRunFields> };

export interface ParticipantsRepository {
  /** Every proposal, pending and rejected, by BIC. */
  proposals(): Promise<StoredProposal[]>;
  /** Pending proposals become exactly `proposals` (a rejected one stays unless a new proposal for its bank replaces it). */
  replacePending(proposals: readonly NewProposal[], at: Date): Promise<StoredProposal[]>;
  /** Marks these BICs' pending proposals rejected; returns the BICs it rejected. */
  reject(bics: readonly string[], by: ActorRef, at: Date): Promise<string[]>;
  /** Deletes these BICs' pending proposals (confirmed and applied). */
  remove(bics: readonly string[]): Promise<void>;
  recordRun(run: NewEntity<typeof participantRunFields>): Promise<ParticipantRun>;
  /** The latest runs, newest first; `syncOnly` leaves imports out. */
  recent(limit: number, syncOnly?: boolean): Promise<ParticipantRun[]>;
  /** Runs `work` unless a participant sync runs elsewhere (an advisory lock on PostgreSQL; in process on PGlite). */
  exclusive<T>(work: () => Promise<T>): Promise<{ ran: true; value: T } | { ran: false }>;
  purgeBefore(cutoff: Date): Promise<number>;
}


export function createParticipantsRepository(database: Kysely<Database>, kind: DatabaseKind): ParticipantsRepository {
  const db = database.withTables<Tables>();
  const proposal = (row: Record<string, unknown>) => fromColumns(proposalFields, row);
  return {
    async proposals() {
      return (await db.selectFrom('bank_participant_proposals').selectAll().orderBy('bic').execute()).map(proposal);
    },
    replacePending(proposals, at) {
      return database.transaction().execute(async (trx) => {
        const tx = trx.withTables<Tables>();
        const keep = proposals.map((found) => found.bic);
        let stale = tx.deleteFrom('bank_participant_proposals').where('status', '=', 'pending');
        if (keep.length > 0) stale = stale.where('bic', 'not in', keep);
        await stale.execute();
        const stored: StoredProposal[] = [];
        for (const found of proposals) {
          const row = toColumns(proposalFields, { ...found, status: 'pending', proposedAt: at, decidedBy: null, decidedAt: null });
          const written = await tx
            .insertInto('bank_participant_proposals')
            .values(row)
            .onConflict((conflict) =>
              conflict.column('bic').doUpdateSet((eb) => ({
                member_id: eb.ref('excluded.member_id'),
                participant_name: eb.ref('excluded.participant_name'),
                participant_name_en: eb.ref('excluded.participant_name_en'),
                bank_name: eb.ref('excluded.bank_name'),
                status: eb.ref('excluded.status'),
                decided_by: eb.ref('excluded.decided_by'),
                decided_at: eb.ref('excluded.decided_at'),
                // A proposal already waiting keeps the time it was first made.
                proposed_at: sql`case when bank_participant_proposals.status = 'pending' and bank_participant_proposals.member_id = excluded.member_id then bank_participant_proposals.proposed_at else excluded.proposed_at end`,
              })),
            )
            .returningAll()
            .executeTakeFirstOrThrow();
          stored.push(proposal(written));
        }
        return stored;
      });
    },
    async reject(bics, by, at) {
      if (bics.length === 0) return [];
      const rows = await db
        .updateTable('bank_participant_proposals')
        .set({ status: 'rejected', decided_by: JSON.stringify(by), decided_at: at })
        .where('status', '=', 'pending')
        .where('bic', 'in', [...bics])
        .returning('bic')
        .execute();
      return rows.map((row) => row.bic as string);
    },
    async remove(bics) {
      if (bics.length > 0) await db.deleteFrom('bank_participant_proposals').where('status', '=', 'pending').where('bic', 'in', [...bics]).execute();
    },
    async recordRun(run) {
      const row = await db.insertInto('bank_participant_runs').values(toColumns(participantRunFields, run)).returningAll().executeTakeFirstOrThrow();
      return fromColumns(participantRunFields, row);
    },
    async recent(limit, syncOnly = false) {
      let query = db.selectFrom('bank_participant_runs').selectAll().orderBy('id', 'desc').limit(limit);
      if (syncOnly) query = query.where('trigger', '<>', 'import');
      return (await query.execute()).map((row) => fromColumns(participantRunFields, row));
    },
    exclusive: (work) => runExclusively(database, kind, 'bank_participants_sync', work),
    async purgeBefore(cutoff) {
      const result = await db.deleteFrom('bank_participant_runs').where('finished_at', '<', cutoff).executeTakeFirst();
      return Number(result.numDeletedRows);
    },
  };
}
