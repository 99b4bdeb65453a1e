/**
 * `npm run bench:migration`: migration 0004 (the audit table becomes partitioned) on a large table, on
 * PostgreSQL. A schema of its own in BENCH_DATABASE_URL (use a database of its own: 10 million rows take
 * about 3 GB), migrated up to 0003, gets BENCH_AUDIT_ROWS audit rows (default 10 million) spread over the
 * last 30 days; then the migration runs while a writer appends a batch of 100 entries every 20 ms, and the
 * maintenance run moves the old rows into their partitions. Prints how long each took, the writer's longest
 * wait and whether any of its writes was refused, and that no row was lost.
 */
import { randomBytes } from 'node:crypto';
import { sql } from 'kysely';
import { createAuditRetention } from '../src/audit/audit-retention.js';
import { openDatabase } from '../src/db/database.js';
import { migrateToLatest, migrateUpTo } from '../src/db/migrate.js';
import { adminQuery } from '../test/support/test-databases.js';

const URL_ = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/bench16';
const ROWS = Number(process.env.BENCH_AUDIT_ROWS ?? 10_000_000);
const SCHEMA = `migration_${randomBytes(4).toString('hex')}`;
const log = (text: string) => process.stderr.write(`${new Date().toISOString()} ${text}\n`);

await adminQuery(URL_, `create schema ${SCHEMA}`);
const inSchema = `${URL_}${URL_.includes('?') ? '&' : '?'}options=${encodeURIComponent(`-c search_path=${SCHEMA}`)}`;
const handle = await openDatabase({ url: URL_, searchPath: SCHEMA, poolSize: 4 });
try {
  await migrateUpTo(handle.db, '0003-unlogged-caches');
  let started = Date.now();
  for (let done = 0; done < ROWS; done += 1_000_000) {
    const count = Math.min(1_000_000, ROWS - done);
    // Straight through a client of its own: the gateway's pool gives a statement 15 s.
    await adminQuery(
      inSchema,
      `insert into audit_log (at, action, outcome, status, partner, client_address, reason, request_id)
       select now() - make_interval(secs => (g::float8 / $1) * 30 * 86400), 'banks',
         case when g % 50 = 0 then 'failure' else 'success' end, case when g % 50 = 0 then 401 else 200 end,
         'bench-' || (g % 1000), '127.0.0.1', case when g % 50 = 0 then 'wrong_password' end, 'req-' || g
       from generate_series($2::bigint, $3::bigint) g`,
      [ROWS, ROWS - done - count + 1, ROWS - done],
    );
    log(`${done + count} rows`);
  }
  await sql`analyze audit_log`.execute(handle.db);
  const load = Date.now() - started;

  let stop = false;
  let writes = 0;
  let refused = 0;
  let longestMs = 0;
  const writer = (async () => {
    while (!stop) {
      const at = Date.now();
      try {
        // The columns every version writes: during a rolling deploy the old version's writers go on too.
        await sql`insert into audit_log (at, action, outcome, status, partner, client_address, request_id)
          select now(), 'banks', 'success', 200, 'writer', '127.0.0.1', md5(random()::text) from generate_series(1, 100)`.execute(handle.db);
        writes++;
      } catch (error) {
        refused++;
        log(`writer refused: ${(error as Error).message}`);
      }
      longestMs = Math.max(longestMs, Date.now() - at);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  })();
  await new Promise((resolve) => setTimeout(resolve, 500));
  started = Date.now();
  await migrateToLatest(handle.db);
  const migration = Date.now() - started;
  const longestDuringMigration = longestMs;
  log(`migration ${migration} ms, writer's longest wait ${longestMs} ms`);
  started = Date.now();
  const report = await createAuditRetention(handle.db, { retentionDays: 400, ...(process.env.BENCH_MOVE_BATCH ? { batchSize: Number(process.env.BENCH_MOVE_BATCH) } : {}) }).run();
  const move = Date.now() - started;
  stop = true;
  await writer;
  const total = Number((await sql<{ n: string }>`select count(*) as n from audit_log`.execute(handle.db)).rows[0]!.n);
  const result = {
    rows: ROWS,
    loadMs: load,
    migrationMs: migration,
    writerLongestWaitDuringMigrationMs: longestDuringMigration,
    legacyMoveMs: move,
    legacyRowsMoved: report.legacyRowsMoved,
    movedPerSecond: Math.round(report.legacyRowsMoved / (move / 1000)),
    writerBatches: writes,
    writerRefused: refused,
    writerLongestWaitMs: longestMs,
    rowsAfter: total,
    expected: ROWS + writes * 100,
    noRowLost: total === ROWS + writes * 100,
  };
  console.log(JSON.stringify(result, null, 2));
} finally {
  await handle.close();
  await adminQuery(URL_, `drop schema ${SCHEMA} cascade`);
}
