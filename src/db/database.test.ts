import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { sql } from 'kysely';
import pg from 'pg';
import { openDatabase } from './database.js';

const url = process.env.TEST_DATABASE_URL;

describe('the PostgreSQL connection pool', { skip: url ? false : 'TEST_DATABASE_URL is not set' }, () => {
  it('survives the server ending a session between two statements of a transaction, and connects again', async (t) => {
    // Watches, without changing, the 'error' events pg's clients emit: the one of the ended session is awaited.
    const emit = pg.Client.prototype.emit;
    let fatalReached!: () => void;
    const fatal = new Promise<void>((resolve) => (fatalReached = resolve));
    t.mock.method(pg.Client.prototype, 'emit', function (this: pg.Client, event: string | symbol, ...args: unknown[]) {
      if (event === 'error' && (args[0] as { code?: string } | undefined)?.code === '57P01') fatalReached();
      return emit.call(this, event, ...args);
    });
    const handle = await openDatabase({ url, poolSize: 2 });
    try {
      await assert.rejects(
        handle.db.transaction().execute(async (trx) => {
          const { rows } = await sql<{ pid: number }>`select pg_backend_pid() as pid`.execute(trx);
          await terminate(rows[0]!.pid);
          // The FATAL reaches the client while no statement of ours is running: the moment a fast shutdown
          // can pick, which crashed the process with an unhandled 'error' event.
          await fatal;
          await sql`select 1`.execute(trx);
        }),
      );
      await handle.ping();
    } finally {
      await handle.close();
    }
  });
});

/** Ends a session from another connection, as a fast shutdown does (FATAL 57P01), and waits until it is gone. */
async function terminate(pid: number): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query('select pg_terminate_backend($1, 5000)', [pid]);
  } finally {
    await client.end();
  }
}
