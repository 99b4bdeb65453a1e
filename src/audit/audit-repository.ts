import { sql, type Kysely, type Selectable, type SelectQueryBuilder } from 'kysely';
import type { ActorRef } from '@partner-gateway/contract/admin-approvals';
import type { AuditLogTable, Database } from '../db/schema.js';
import { PARTNER_CALL_ACTIONS } from '@partner-gateway/contract/audit-names';
import { storableAuditEntry, storableText, type AuditEntry, type StoredAuditEntry } from './audit-entry.js';

export interface AuditQuery {
  partner?: string;
  outcome?: 'success' | 'failure';
  reason?: string;
  action?: string;
  /** Entries of one of these actions (the self-service request log: the partner's own calls, never an operator's change). */
  actions?: readonly string[];
  /** Entries made by this operator id (or `bootstrap`), or approved by it. */
  operator?: string;
  /** Entries of the request with this id: its own, or an aggregated entry whose first or last call it was. */
  requestId?: string;
  from?: Date;
  to?: Date;
  /** Newest first: entries with an id below this one. */
  before?: string;
  /** Oldest first: entries with an id above this one (for following the trail). */
  after?: string;
  limit: number;
}

/** An entry the writer aggregated: it counts the calls it stands for. */
export type CountedEntry = AuditEntry & { count?: number; lastRequestId?: string | null };


/** A partner's latest successful partner API call. */
export interface LastCall {
  id: string;
  at: Date;
  action: string;
}

/** The append-only audit table: inserts and reads, nothing else (the database refuses updates and deletes). */
export interface AuditRepository {
  append(entries: readonly AuditEntry[]): Promise<void>;
  query(query: AuditQuery): Promise<StoredAuditEntry[]>;
  /** How many entries match the query's filters (not its paging), counted up to `limit` and no further. */
  count(query: Omit<AuditQuery, 'before' | 'after' | 'limit'>, limit: number): Promise<{ count: number; capped: boolean }>;
  /**
   * Every entry with `from <= at < to`, oldest first by (at, id), a page of `pageSize` at a time read by keyset
   * (never an offset, never the whole range at once): what an export streams.
   */
  range(from: Date, to: Date, pageSize: number): AsyncIterable<StoredAuditEntry[]>;
  /**
   * Each login's latest successful partner API call (one of PARTNER_CALL_ACTIONS), in one query of
   * partner_last_call (kept by `append`): one primary-key lookup per login.
   */
  lastCalls(logins: readonly string[]): Promise<Map<string, LastCall>>;
  /** The calls of `partner` among `actions` since `from`, per UTC day, action and outcome (aggregated entries counted as the calls they stand for). */
  usage(partner: string, actions: readonly string[], from: Date): Promise<UsageRow[]>;
}

/** One UTC day's calls of one action with one outcome. */
export interface UsageRow {
  /** `YYYY-MM-DD`, UTC. */
  day: string;
  action: string;
  outcome: 'success' | 'failure';
  calls: number;
}

export function createAuditRepository(db: Kysely<Database>): AuditRepository {
  return {
    async append(entries) {
      if (entries.length === 0) return;
      // The whole batch travels as one JSON parameter: one serialization in Node instead of ten parameters
      // per row, which matters when every banks call is audited.
      // Every string made storable first (storableAuditEntry): a single value PostgreSQL refuses would fail the batch.
      const rows = JSON.stringify(
        entries.map((queued) => {
          const entry = storableAuditEntry(queued);
          const lastRequestId = (queued as CountedEntry).lastRequestId ?? null;
          return {
            at: entry.at.toISOString(),
            action: entry.action,
            outcome: entry.outcome,
            status: entry.status,
            partner: entry.partner,
            client_address: entry.clientAddress,
            reason: entry.reason,
            request_id: entry.requestId,
            details: entry.details,
            count: (queued as CountedEntry).count ?? 1,
            last_request_id: lastRequestId === null ? null : storableText(lastRequestId),
            operator_id: entry.operator?.id ?? null,
            operator_name: entry.operator?.name ?? null,
            operator_credential: entry.operator?.credential ?? null,
            approver_id: entry.approver?.id ?? null,
            approver_name: entry.approver?.name ?? null,
            approver_credential: entry.approver?.credential ?? null,
            operator_through: entry.operator?.issuedThrough ?? null,
            approver_through: entry.approver?.issuedThrough ?? null,
          };
        }),
      );
      // The same statement keeps partner_last_call: its rows are locked in partner order, so two instances
      // writing batches at once cannot deadlock, and an older call never replaces a newer one.
      await sql`with appended as (
          insert into audit_log (at, action, outcome, status, partner, client_address, reason, request_id, details, count, last_request_id,
            operator_id, operator_name, operator_credential, approver_id, approver_name, approver_credential, operator_through, approver_through)
          select at, action, outcome, status, partner, client_address, reason, request_id, details, count, last_request_id,
            operator_id, operator_name, operator_credential, approver_id, approver_name, approver_credential, operator_through, approver_through
          from jsonb_to_recordset(${rows}::jsonb) as entry(at timestamptz, action text, outcome text, status integer, partner text,
            client_address text, reason text, request_id text, details jsonb, count integer, last_request_id text,
            operator_id text, operator_name text, operator_credential text, approver_id text, approver_name text, approver_credential text,
            operator_through jsonb, approver_through jsonb)
          returning id, at, action, outcome, partner
        )
        ${upsertLastCalls('appended')}`.execute(db);
    },
    async query(query) {
      let select = filtered(db.selectFrom('audit_log').selectAll(), query);
      // A time range without a partner is read newest first by time (the index on (at, id), pruned to the
      // range's day partitions) rather than by id: ids follow time only roughly, so the id index would walk
      // every entry newer than `to`. Both orders are newest first; they differ only between entries written
      // out of order by different instances. The cursor stays an id: its (at, id) is looked up.
      if (query.after === undefined && (query.from !== undefined || query.to !== undefined) && query.partner === undefined) {
        if (query.before !== undefined) {
          select = select.where(sql<boolean>`(at, id) < (select cursor.at, cursor.id from audit_log cursor where cursor.id = ${query.before})`);
        }
        const rows = await select.orderBy('at', 'desc').orderBy('id', 'desc').limit(query.limit).execute();
        return rows.map(toEntry);
      }
      if (query.before !== undefined) select = select.where('id', '<', query.before);
      if (query.after !== undefined) select = select.where('id', '>', query.after);
      const rows = await select.orderBy('id', query.after !== undefined ? 'asc' : 'desc').limit(query.limit).execute();
      return rows.map(toEntry);
    },
    async count(query, limit) {
      const matching = filtered(db.selectFrom('audit_log').select(sql<number>`1`.as('one')), query).limit(limit + 1);
      const row = await db.selectFrom(matching.as('matching')).select((eb) => eb.fn.countAll<string | number>().as('count')).executeTakeFirstOrThrow();
      const count = Number(row.count);
      return count > limit ? { count: limit, capped: true } : { count, capped: false };
    },
    async *range(from, to, pageSize) {
      // The cursor keeps `at` as the database's text (microseconds), which a JavaScript Date would round.
      let cursor: { at: string; id: string } | undefined;
      for (;;) {
        let select = db
          .selectFrom('audit_log')
          .selectAll()
          .select(sql<string>`at::text`.as('at_cursor'))
          .where('at', '<', to);
        select = cursor === undefined ? select.where('at', '>=', from) : select.where(sql<boolean>`(at, id) > (${cursor.at}::timestamptz, ${cursor.id}::bigint)`);
        const rows = await select.orderBy('at').orderBy('id').limit(pageSize).execute();
        if (rows.length === 0) return;
        const last = rows.at(-1)!;
        cursor = { at: last.at_cursor, id: String(last.id) };
        yield rows.map(toEntry);
        if (rows.length < pageSize) return;
      }
    },
    async usage(partner, actions, from) {
      const { rows } = await sql<{ day: string; action: string; outcome: 'success' | 'failure'; calls: string | number }>`
        select to_char(at at time zone 'UTC', 'YYYY-MM-DD') as day, action, outcome, sum(count) as calls
        from audit_log
        where partner = ${partner} and at >= ${from} and action in (${sql.join(actions.map((action) => sql.lit(action)))})
        group by 1, 2, 3 order by 1, 2, 3`.execute(db);
      return rows.map((row) => ({ day: row.day, action: row.action, outcome: row.outcome, calls: Number(row.calls) }));
    },
    async lastCalls(logins) {
      if (logins.length === 0) return new Map();
      const { rows } = await sql<{ login: string; id: string; at: Date; action: string }>`select partner as login, id, at, action
        from partner_last_call where partner in (select jsonb_array_elements_text(${JSON.stringify(logins)}::jsonb))`.execute(db);
      return new Map(rows.map((row) => [row.login, { id: String(row.id), at: new Date(row.at), action: row.action }]));
    },
  };
}

/**
 * The tail of a statement whose CTE `rows` yields audit rows (id, at, action, outcome, partner): records each
 * partner's newest successful partner API call among them in partner_last_call unless a newer one is there.
 */
export function upsertLastCalls(rows: string) {
  return sql`insert into partner_last_call (partner, id, at, action)
    select distinct on (partner) partner, id, at, action from ${sql.table(rows)}
    where partner is not null and outcome = 'success' and action in (${sql.join(PARTNER_CALL_ACTIONS.map((action) => sql.lit(action)))})
    order by partner, at desc, id desc
    on conflict (partner) do update set id = excluded.id, at = excluded.at, action = excluded.action
    where (excluded.at, excluded.id) > (partner_last_call.at, partner_last_call.id)`;
}

/** The query's filters (not its paging) on a select of audit_log. */
function filtered<S extends SelectQueryBuilder<Database, 'audit_log', any>>(select: S, query: Omit<AuditQuery, 'before' | 'after' | 'limit'>): S {
  let where = select as SelectQueryBuilder<Database, 'audit_log', any>;
  if (query.partner !== undefined) where = where.where('partner', '=', query.partner);
  if (query.outcome !== undefined) where = where.where('outcome', '=', query.outcome);
  if (query.reason !== undefined) where = where.where('reason', '=', query.reason);
  if (query.action !== undefined) where = where.where('action', '=', query.action);
  if (query.actions !== undefined) where = where.where('action', 'in', [...query.actions]);
  if (query.operator !== undefined) {
    const operator = query.operator;
    where = where.where((eb) => eb.or([eb('operator_id', '=', operator), eb('approver_id', '=', operator)]));
  }
  if (query.requestId !== undefined) {
    const requestId = query.requestId;
    // `count > 1` names the partial index on last_request_id (an entry of one call has it equal to request_id).
    where = where.where((eb) => eb.or([eb('request_id', '=', requestId), eb.and([eb('last_request_id', '=', requestId), eb('count', '>', 1)])]));
  }
  if (query.from !== undefined) where = where.where('at', '>=', query.from);
  if (query.to !== undefined) where = where.where('at', '<', query.to);
  return where as S;
}

function actorOf(id: string | null, name: string | null, credential: string | null, through: string[] | null): ActorRef | null {
  if (id === null) return null;
  const actor: ActorRef = { id, name: name ?? id, credential: (credential ?? 'bootstrap') as ActorRef['credential'] };
  return through && through.length > 0 ? { ...actor, issuedThrough: through } : actor;
}

function toEntry(row: Selectable<AuditLogTable>): StoredAuditEntry {
  return {
    id: String(row.id),
    at: row.at,
    action: row.action,
    outcome: row.outcome,
    status: row.status,
    partner: row.partner,
    clientAddress: row.client_address,
    reason: row.reason,
    requestId: row.request_id,
    details: row.details,
    count: row.count,
    lastRequestId: row.last_request_id,
    operator: actorOf(row.operator_id, row.operator_name, row.operator_credential, row.operator_through),
    approver: actorOf(row.approver_id, row.approver_name, row.approver_credential, row.approver_through),
  };
}
