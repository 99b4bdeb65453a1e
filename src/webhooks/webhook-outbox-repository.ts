import { createHash, randomUUID } from 'node:crypto';
import { sql, type Kysely } from 'kysely';
import type { BankListChange } from '@partner-gateway/contract/admin-bank-versions';
import { CREDENTIAL_EXPIRING, SBP_BANKS_UPDATED, type CredentialExpiringEvent, type SbpBanksUpdatedEvent } from '@partner-gateway/contract/webhook-events';
import { column, fromColumns, toColumns, type Entity } from '../db/field-map.js';
import type { Database } from '../db/schema.js';
import { credentialsEndingBetween, type CredentialEndRow } from '../partners/partner-credential-ends.js';

/** An outbox row's fields (migration 0033): one event to one endpoint (a replay is a row of its own). */
export const webhookDeliveryFields = {
  id: column<string>('id').immutable(),
  eventId: column<string>('event_id').immutable(),
  endpointId: column<string>('endpoint_id').immutable(),
  status: column<'pending' | 'delivered' | 'failed'>('status'),
  attempts: column<number>('attempts'),
  nextAttemptAt: column<Date>('next_attempt_at'),
  leaseUntil: column<Date | null>('lease_until'),
  leasedBy: column<string | null>('leased_by'),
  replay: column<boolean>('replay').immutable(),
  createdAt: column<Date>('created_at').immutable(),
  finishedAt: column<Date | null>('finished_at'),
  lastError: column<string | null>('last_error'),
};
export type WebhookDelivery = Entity<typeof webhookDeliveryFields>;

/** One attempt of the delivery log (migration 0033). */
export const webhookAttemptFields = {
  deliveryId: column<string>('delivery_id'),
  endpointId: column<string>('endpoint_id'),
  eventId: column<string>('event_id'),
  at: column<Date>('at'),
  outcome: column<'delivered' | 'failed'>('outcome'),
  statusCode: column<number | null>('status_code'),
  error: column<string | null>('error'),
  durationMs: column<number>('duration_ms'),
};
export type WebhookAttempt = Entity<typeof webhookAttemptFields>;

/** An event as stored: its id (the `webhook-id` header), its body as sent. */
export interface WebhookEvent {
  id: string;
  body: string;
  createdAt: Date;
}

type Tables = { [table: string]: { [column: string]: any } };

/** Versions made into events per call, at most: a cursor far behind catches up over several ticks. */
const MAX_VERSIONS_PER_CALL = 50;

/** What a settled attempt leaves: delivered, tried again at `retryAt`, or given up (`failed`). */
export type AttemptResult = { outcome: 'delivered' } | { outcome: 'retry'; retryAt: Date; error: string } | { outcome: 'failed'; error: string };

export interface WebhookOutboxRepository {
  /**
   * Makes every bank list version published since the last call into an `sbp_banks.updated` event with a delivery
   * for each enabled endpoint, once across all instances (the cursor row is locked). Seed versions announce nothing.
   */
  enqueueNewVersions(now: Date): Promise<number>;
  /**
   * Makes every partner credential ending after `now` and at or before `until` (credentialsEndingBetween: a key, a
   * certificate, the API password a rotation replaced) into a `credential.expiring` event for its partner, with a delivery for each of the partner's enabled
   * endpoints: once per credential and end across all instances (the event id is derived from them). How many new.
   */
  enqueueCredentialsEnding(now: Date, until: Date): Promise<number>;
  /** Leases up to `limit` due deliveries for `instance` until `leaseUntil` (rows another instance holds are skipped). */
  claim(instance: string, now: Date, leaseUntil: Date, limit: number): Promise<WebhookDelivery[]>;
  event(id: string): Promise<WebhookEvent | undefined>;
  /** Records an attempt in the log and settles the delivery, if `instance` still holds it; false when it did not. */
  settle(delivery: WebhookDelivery, instance: string, attempt: WebhookAttempt, result: AttemptResult): Promise<boolean>;
  /** The endpoint's last `limit` attempts, newest first. */
  attempts(endpointId: string, limit: number): Promise<WebhookAttempt[]>;
  /**
   * Queues `eventId` (or every event created at or after `since`) for the endpoint again; how many were queued. Only
   * events for every partner and those for the endpoint's own partner: another partner's event is as unknown.
   */
  replay(endpointId: string, which: { eventId: string } | { since: Date }, now: Date): Promise<number>;
  /** Drops the endpoint's pending deliveries as failed (it was disabled). */
  abandonPending(endpointId: string, now: Date, reason: string): Promise<void>;
  /**
   * Deletes up to `limit` events created before `before` that no delivery still waits for (every delivery delivered
   * or given up), with their deliveries and attempts, oldest first; how many events went.
   */
  purgeFinished(before: Date, limit: number): Promise<number>;
}

export function createWebhookOutboxRepository(database: Kysely<Database>): WebhookOutboxRepository {
  const db = database.withTables<Tables>();
  const toDelivery = (row: Record<string, unknown>) => fromColumns(webhookDeliveryFields, row);
  return {
    enqueueNewVersions(now) {
      return database.transaction().execute(async (trx) => {
        const tx = trx.withTables<Tables>();
        const cursor = await tx.selectFrom('webhook_cursor').select('bank_version').where('id', '=', 1).forUpdate().executeTakeFirst();
        const head = await tx.selectFrom('bank_list_head').select('version').where('id', '=', 1).executeTakeFirst();
        const from = Number(cursor?.bank_version ?? 0);
        const to = Math.min(Number(head?.version ?? 0), from + MAX_VERSIONS_PER_CALL);
        if (to <= from) return 0;
        const versions = await tx
          .selectFrom('bank_versions')
          .select(['number', 'source', 'changes', 'etag', 'created_at'])
          .where('number', '>', from)
          .where('number', '<=', to)
          .orderBy('number')
          .execute();
        const endpoints = await tx.selectFrom('webhook_endpoints').select('id').where('status', '=', 'enabled').execute();
        let made = 0;
        for (const version of versions) {
          if (version.source === 'seed') continue;
          const changes = (typeof version.changes === 'string' ? JSON.parse(version.changes) : version.changes) as BankListChange[];
          const event: SbpBanksUpdatedEvent = {
            type: SBP_BANKS_UPDATED,
            timestamp: new Date(version.created_at).toISOString(),
            data: {
              version: Number(version.number),
              etag: String(version.etag),
              added: changes.filter((change) => change.kind === 'added').map((change) => change.bic),
              removed: changes.filter((change) => change.kind === 'removed').map((change) => change.bic),
            },
          };
          const id = `msg_${randomUUID().replaceAll('-', '')}`;
          await tx.insertInto('webhook_events').values({ id, type: SBP_BANKS_UPDATED, bank_version: event.data.version, body: JSON.stringify(event), created_at: now }).execute();
          if (endpoints.length > 0) {
            await tx
              .insertInto('webhook_deliveries')
              .values(endpoints.map(({ id: endpointId }) => ({ id: randomUUID(), event_id: id, endpoint_id: endpointId, next_attempt_at: now, created_at: now })))
              .execute();
          }
          made += 1;
        }
        await tx.updateTable('webhook_cursor').set({ bank_version: to }).where('id', '=', 1).execute();
        return made;
      });
    },
    async enqueueCredentialsEnding(now, until) {
      const { rows } = await sql<CredentialEndRow>`${credentialsEndingBetween(now, until)}`.execute(database);
      let made = 0;
      for (const row of rows) {
        const expiresAt = new Date(row.ends_at).toISOString();
        const event: CredentialExpiringEvent = { type: CREDENTIAL_EXPIRING, timestamp: now.toISOString(), data: { credential: row.credential, id: String(row.id), expiresAt } };
        // The id is the credential's and its end's: every instance derives the same one, and the second insert is a no-op.
        const id = `msg_${createHash('sha256').update(`${CREDENTIAL_EXPIRING}\n${row.partner_id}\n${row.credential}\n${row.id}\n${expiresAt}`).digest('hex').slice(0, 32)}`;
        made += await database.transaction().execute(async (trx) => {
          const tx = trx.withTables<Tables>();
          const inserted = await tx
            .insertInto('webhook_events')
            .values({ id, type: CREDENTIAL_EXPIRING, partner_id: row.partner_id, body: JSON.stringify(event), created_at: now })
            .onConflict((conflict) => conflict.column('id').doNothing())
            .returning('id')
            .executeTakeFirst();
          if (!inserted) return 0;
          const endpoints = await tx.selectFrom('webhook_endpoints').select('id').where('partner_id', '=', row.partner_id).where('status', '=', 'enabled').execute();
          if (endpoints.length > 0) {
            await tx
              .insertInto('webhook_deliveries')
              .values(endpoints.map(({ id: endpointId }) => ({ id: randomUUID(), event_id: id, endpoint_id: endpointId, next_attempt_at: now, created_at: now })))
              .execute();
          }
          return 1;
        });
      }
      return made;
    },
    async claim(instance, now, leaseUntil, limit) {
      // FOR UPDATE SKIP LOCKED keeps two instances' claims from waiting on each other; the lease (not the row lock,
      // which ends with this statement) is what keeps a claimed row from being sent twice while it is attempted.
      const { rows } = await sql<Record<string, unknown>>`
        update webhook_deliveries set lease_until = ${leaseUntil}, leased_by = ${instance}
        where id in (
          select id from webhook_deliveries
          where status = 'pending' and next_attempt_at <= ${now} and (lease_until is null or lease_until <= ${now})
          order by next_attempt_at, created_at
          limit ${limit}
          for update skip locked
        )
        returning *`.execute(database);
      return rows.map(toDelivery);
    },
    async event(id) {
      const row = await db.selectFrom('webhook_events').select(['id', 'body', 'created_at']).where('id', '=', id).executeTakeFirst();
      return row && { id: String(row.id), body: String(row.body), createdAt: new Date(row.created_at) };
    },
    settle(delivery, instance, attempt, result) {
      return database.transaction().execute(async (trx) => {
        const tx = trx.withTables<Tables>();
        const changes =
          result.outcome === 'delivered'
            ? { status: 'delivered', finished_at: attempt.at, last_error: null }
            : result.outcome === 'retry'
              ? { next_attempt_at: result.retryAt, last_error: result.error }
              : { status: 'failed', finished_at: attempt.at, last_error: result.error };
        const updated = await tx
          .updateTable('webhook_deliveries')
          .set({ ...changes, attempts: delivery.attempts + 1, lease_until: null, leased_by: null })
          .where('id', '=', delivery.id)
          .where('leased_by', '=', instance)
          .where('status', '=', 'pending')
          .executeTakeFirst();
        if (Number(updated.numUpdatedRows) === 0) return false;
        await tx.insertInto('webhook_attempts').values(toColumns(webhookAttemptFields, attempt)).execute();
        return true;
      });
    },
    async attempts(endpointId, limit) {
      const rows = await db.selectFrom('webhook_attempts').selectAll().where('endpoint_id', '=', endpointId).orderBy('at', 'desc').orderBy('id', 'desc').limit(limit).execute();
      return rows.map((row) => fromColumns(webhookAttemptFields, row));
    },
    async replay(endpointId, which, now) {
      let events = db.selectFrom('webhook_events').select('id');
      events = 'eventId' in which ? events.where('id', '=', which.eventId) : events.where('created_at', '>=', which.since);
      events = events.where((eb) => eb.or([eb('partner_id', 'is', null), eb('partner_id', '=', eb.selectFrom('webhook_endpoints').select('partner_id').where('id', '=', endpointId))]));
      const ids = await events.orderBy('created_at').limit(1000).execute();
      if (ids.length === 0) return 0;
      await db
        .insertInto('webhook_deliveries')
        .values(ids.map(({ id }) => ({ id: randomUUID(), event_id: id, endpoint_id: endpointId, next_attempt_at: now, created_at: now, replay: true })))
        .execute();
      return ids.length;
    },
    purgeFinished(before, limit) {
      return database.transaction().execute(async (trx) => {
        const tx = trx.withTables<Tables>();
        const rows = await tx
          .selectFrom('webhook_events as e')
          .select('e.id')
          .where('e.created_at', '<', before)
          .where(({ not, exists, selectFrom }) => not(exists(selectFrom('webhook_deliveries as d').select('d.id').whereRef('d.event_id', '=', 'e.id').where('d.status', '=', 'pending'))))
          .orderBy('e.created_at')
          .limit(limit)
          .execute();
        const ids = rows.map((row) => String(row.id));
        if (ids.length === 0) return 0;
        // Children first, each in one statement (the cascade would look them up event by event).
        await tx.deleteFrom('webhook_attempts').where('event_id', 'in', ids).execute();
        await tx.deleteFrom('webhook_deliveries').where('event_id', 'in', ids).execute();
        await tx.deleteFrom('webhook_events').where('id', 'in', ids).execute();
        return ids.length;
      });
    },
    async abandonPending(endpointId, now, reason) {
      await db.updateTable('webhook_deliveries').set({ status: 'failed', finished_at: now, last_error: reason, lease_until: null, leased_by: null }).where('endpoint_id', '=', endpointId).where('status', '=', 'pending').execute();
    },
  };
}
