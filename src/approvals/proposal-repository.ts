import { sql, type Kysely } from 'kysely';
import type { ActorRef, ProposalStatus } from '@partner-gateway/contract/admin-approvals';
import { column, fromColumns, json, toColumns, type Entity, type NewEntity } from '../db/field-map.js';
import type { Database } from '../db/schema.js';

/** A proposal's stored fields (migration 0021). */
export const proposalFields = {
  id: column<string>('id').immutable(),
  action: column<string>('action').immutable(),
  status: column<ProposalStatus>('status').defaulted('pending'),
  target: column<string>('target').immutable(),
  request: json<unknown>('request').immutable(),
  preview: json<unknown>('preview').immutable(),
  base: column<string>('base').immutable(),
  proposedBy: json<ActorRef>('proposed_by').immutable(),
  proposedAt: column<Date>('proposed_at').immutable(),
  expiresAt: column<Date>('expires_at').immutable(),
  decidedBy: json<ActorRef | null>('decided_by').defaulted(null),
  decidedAt: column<Date | null>('decided_at').defaulted(null),
  reason: column<string | null>('reason').defaulted(null),
  result: json<unknown>('result').defaulted(null),
};

export type ProposalFields = typeof proposalFields;
export type Proposal = Entity<ProposalFields>;

/** Proposals in storage. */
export interface ProposalRepository {
  insert(proposal: NewEntity<ProposalFields>): Promise<Proposal>;
  find(id: string): Promise<Proposal | undefined>;
  list(filter: { status?: ProposalStatus; limit: number }): Promise<Proposal[]>;
  /** Marks pending proposals whose time ran out at `now` as expired (their decision time is their expiry). */
  expire(now: Date): Promise<void>;
  /**
   * Moves a pending proposal to `status` with its decision, atomically: undefined when it was no longer pending
   * (another operator decided it first), so that a proposal is decided, and applied, once.
   */
  decide(id: string, status: Exclude<ProposalStatus, 'pending'>, decision: { decidedBy: ActorRef | null; decidedAt: Date; reason: string | null }): Promise<Proposal | undefined>;
  /** Puts an approved proposal whose change failed for a reason of the gateway's own (the database away) back to pending. */
  reopen(id: string): Promise<void>;
  /** Records what an approved proposal's change answered, or changes its outcome (conflict) when it could not apply. */
  settle(id: string, outcome: { status: 'approved' | 'conflict'; result: unknown; reason: string | null }): Promise<void>;
}

type ProposalsTable = { [K in keyof ProposalFields as ProposalFields[K]['column']]: unknown } & { [column: string]: unknown };

export function createProposalRepository(database: Kysely<Database>): ProposalRepository {
  const db = database.withTables<{ proposals: ProposalsTable }>();
  const toProposal = (row: Record<string, unknown>) => fromColumns(proposalFields, row);
  return {
    async insert(proposal) {
      return toProposal(await db.insertInto('proposals').values(toColumns(proposalFields, proposal)).returningAll().executeTakeFirstOrThrow());
    },
    async find(id) {
      const row = await db.selectFrom('proposals').selectAll().where('id', '=', id).executeTakeFirst();
      return row && toProposal(row);
    },
    async list({ status, limit }) {
      let select = db.selectFrom('proposals').selectAll();
      if (status !== undefined) select = select.where('status', '=', status);
      const rows = await select.orderBy('proposed_at', 'desc').orderBy('id', 'desc').limit(limit).execute();
      return rows.map(toProposal);
    },
    async expire(now) {
      await db
        .updateTable('proposals')
        .set({ status: 'expired', decided_at: sql`expires_at` })
        .where('status', '=', 'pending')
        .where('expires_at', '<=', now)
        .execute();
    },
    async decide(id, status, { decidedBy, decidedAt, reason }) {
      const row = await db
        .updateTable('proposals')
        .set(toColumns(proposalFields, { status, decidedBy, decidedAt, reason }, { update: true }))
        .where('id', '=', id)
        .where('status', '=', 'pending')
        .returningAll()
        .executeTakeFirst();
      return row && toProposal(row);
    },
    async reopen(id) {
      await db.updateTable('proposals').set(toColumns(proposalFields, { status: 'pending', decidedBy: null, decidedAt: null, reason: null }, { update: true })).where('id', '=', id).execute();
    },
    async settle(id, { status, result, reason }) {
      await db.updateTable('proposals').set(toColumns(proposalFields, { status, result, reason }, { update: true })).where('id', '=', id).execute();
    },
  };
}
