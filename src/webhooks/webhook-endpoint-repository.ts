import type { Kysely } from 'kysely';
import type { WebhookScheme } from '@partner-gateway/contract/admin-webhooks';
import { column, fromColumns, toColumns, type Entity, type EntityChanges, type NewEntity } from '../db/field-map.js';
import type { Database } from '../db/schema.js';

/** An endpoint's stored fields (migration 0033): the one map that drives its insert, update and read. */
export const webhookEndpointFields = {
  id: column<string>('id').immutable(),
  partnerId: column<string>('partner_id').immutable(),
  url: column<string>('url'),
  scheme: column<WebhookScheme>('scheme'),
  /** The signing material sealed with MASTER_KEY (the endpoint id as additional data). */
  secretSealed: column<string>('secret_sealed'),
  publicKey: column<string | null>('public_key'),
  previousScheme: column<WebhookScheme | null>('previous_scheme').defaulted(null),
  previousSecretSealed: column<string | null>('previous_secret_sealed').defaulted(null),
  previousUntil: column<Date | null>('previous_until').defaulted(null),
  status: column<'enabled' | 'disabled'>('status').defaulted('enabled'),
  failingSince: column<Date | null>('failing_since').defaulted(null),
  disabledAt: column<Date | null>('disabled_at').defaulted(null),
  disabledReason: column<string | null>('disabled_reason').defaulted(null),
  createdAt: column<Date>('created_at').immutable(),
  updatedAt: column<Date>('updated_at'),
};
export type WebhookEndpoint = Entity<typeof webhookEndpointFields>;
export type NewWebhookEndpoint = NewEntity<typeof webhookEndpointFields>;
export type WebhookEndpointChanges = EntityChanges<typeof webhookEndpointFields>;

type Tables = { webhook_endpoints: { [column: string]: unknown }; partners: { id: string } };

export interface WebhookEndpointRepository {
  /**
   * Stores an endpoint unless its partner has `limit` already ('full'): counted and stored under a lock on the
   * partner's row, so that endpoints created at once cannot pass the limit together.
   */
  insert(endpoint: NewWebhookEndpoint, limit: number): Promise<WebhookEndpoint | 'full'>;
  get(id: string): Promise<WebhookEndpoint | undefined>;
  /** A partner's endpoints, oldest first. */
  ofPartner(partnerId: string): Promise<WebhookEndpoint[]>;
  /** Changes an endpoint; undefined when it is gone. */
  update(id: string, changes: WebhookEndpointChanges): Promise<WebhookEndpoint | undefined>;
  /** Removes an endpoint (its outbox rows and log go with it); true when it existed. */
  remove(id: string): Promise<boolean>;
  /** How many endpoints are disabled (the metric). */
  countDisabled(): Promise<number>;
}

export function createWebhookEndpointRepository(database: Kysely<Database>): WebhookEndpointRepository {
  const db = database.withTables<Tables>();
  const toEndpoint = (row: Record<string, unknown>) => fromColumns(webhookEndpointFields, row);
  return {
    async insert(endpoint, limit) {
      return db.transaction().execute(async (trx) => {
        await trx.selectFrom('partners').select('id').where('id', '=', endpoint.partnerId).forUpdate().execute();
        const held = await trx.selectFrom('webhook_endpoints').select((eb) => eb.fn.countAll<string>().as('n')).where('partner_id', '=', endpoint.partnerId).executeTakeFirstOrThrow();
        if (Number(held.n) >= limit) return 'full';
        return toEndpoint(await trx.insertInto('webhook_endpoints').values(toColumns(webhookEndpointFields, endpoint)).returningAll().executeTakeFirstOrThrow());
      });
    },
    async get(id) {
      const row = await db.selectFrom('webhook_endpoints').selectAll().where('id', '=', id).executeTakeFirst();
      return row && toEndpoint(row);
    },
    async ofPartner(partnerId) {
      const rows = await db.selectFrom('webhook_endpoints').selectAll().where('partner_id', '=', partnerId).orderBy('created_at').orderBy('id').execute();
      return rows.map(toEndpoint);
    },
    async update(id, changes) {
      const row = await db.updateTable('webhook_endpoints').set(toColumns(webhookEndpointFields, changes, { update: true })).where('id', '=', id).returningAll().executeTakeFirst();
      return row && toEndpoint(row);
    },
    async remove(id) {
      const result = await db.deleteFrom('webhook_endpoints').where('id', '=', id).executeTakeFirst();
      return Number(result.numDeletedRows) > 0;
    },
    async countDisabled() {
      const row = await db.selectFrom('webhook_endpoints').select((eb) => eb.fn.countAll<string>().as('n')).where('status', '=', 'disabled').executeTakeFirstOrThrow();
      return Number(row.n);
    },
  };
}
