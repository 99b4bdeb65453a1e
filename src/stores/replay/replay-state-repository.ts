import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import { SENTINEL_PREFIX, sentinelJti } from './jti-replay-repository.js';

/** What a store's sentinel says: the epoch of its jtis, and when the loss that began it was found (ms, 0 for none). */
export interface Sentinel {
  epoch: number;
  lostAt: number;
}

/** What the database durably knows of one place spent jtis are kept (migration 0024). */
export interface ReplayStateRow {
  /** The epoch of the sentinel the store should hold; 0 before any. */
  epoch: number;
  /** When the store's jtis were last found lost; null when never. */
  lostAt: Date | null;
  /** The embedded database only: a process has it open and has not closed it cleanly. */
  open: boolean;
}

type Tables = { replay_state: { scope: string; epoch: number; lost_at: Date | null; open: boolean } };

/** A transaction holding one scope's row: what a check reads and writes while other instances wait. */
export interface ReplayStateTransaction {
  /** The transaction itself, for stores that keep their sentinel in the database (and for reading lockouts). */
  db: Kysely<Database>;
  save(row: ReplayStateRow): Promise<void>;
}

export interface ReplayStateRepository {
  /** Runs `work` in one transaction with `scope`'s row locked (created at epoch 0 when missing). */
  locked<T>(scope: string, work: (row: ReplayStateRow, transaction: ReplayStateTransaction) => Promise<T>): Promise<T>;
  /** Notes that the embedded database was closed cleanly (its replay cache written): the next start trusts its table. */
  markClosed(scope: string): Promise<void>;
}

export function createReplayStateRepository(database: Kysely<Database>): ReplayStateRepository {
  const db = database.withTables<Tables>();
  return {
    locked(scope, work) {
      return database.transaction().execute(async (transaction) => {
        const trx = transaction.withTables<Tables>();
        await trx.insertInto('replay_state').values({ scope, epoch: 0, lost_at: null, open: false }).onConflict((conflict) => conflict.column('scope').doNothing()).execute();
        const row = await trx.selectFrom('replay_state').select(['epoch', 'lost_at', 'open']).where('scope', '=', scope).forUpdate().executeTakeFirstOrThrow();
        return work({ epoch: row.epoch, lostAt: row.lost_at === null ? null : new Date(row.lost_at), open: row.open }, {
          db: transaction,
          async save(next) {
            await trx.updateTable('replay_state').set({ epoch: next.epoch, lost_at: next.lostAt, open: next.open }).where('scope', '=', scope).execute();
          },
        });
      });
    },
    async markClosed(scope) {
      await db.updateTable('replay_state').set({ open: false }).where('scope', '=', scope).execute();
    },
  };
}

/**
 * The jwe_replay table's sentinel row, if it has one: `expected`'s, looked up by its key, else the highest
 * epoch of any (a scan of the table, made only when the expected one is missing: after a loss). The table and
 * replay_state share one database, so the loss is the row's to say (`lostAt` 0).
 */
export async function readTableSentinel(db: Kysely<Database>, expected: number): Promise<Sentinel | undefined> {
  if (expected > 0 && (await db.selectFrom('jwe_replay').select('jti').where('jti', '=', sentinelJti(expected)).executeTakeFirst())) return { epoch: expected, lostAt: 0 };
  const rows = await db.selectFrom('jwe_replay').select('jti').where('jti', 'like', `${SENTINEL_PREFIX}%`).execute();
  const epochs = rows.map((row) => Number(row.jti.slice(SENTINEL_PREFIX.length))).filter(Number.isInteger);
  return epochs.length === 0 ? undefined : { epoch: Math.max(...epochs), lostAt: 0 };
}

/** Makes `epoch`'s sentinel row the table's only one. It is never purged (it expires in the year 9999). */
export async function writeTableSentinel(db: Kysely<Database>, { epoch }: Sentinel): Promise<void> {
  await db.deleteFrom('jwe_replay').where('jti', 'like', `${SENTINEL_PREFIX}%`).execute();
  await db.insertInto('jwe_replay').values({ jti: sentinelJti(epoch), expires_at: new Date('9999-12-31T00:00:00Z') }).execute();
}
