import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { sql } from 'kysely';
import { testBackends } from '../../test/support/test-databases.js';
import { DAY_MS, dayStart, listPartitions, partitionName } from '../db/audit-partitions.js';
import { migrateToLatest } from '../db/migrate.js';
import type { DatabaseHandle } from '../db/database.js';
import type { AuditEntry } from './audit-entry.js';
import { createAuditRepository } from './audit-repository.js';
import { createAuditRetention } from './audit-retention.js';

const T0 = Date.now();
const entry = (at: number, requestId: string): AuditEntry => ({
  at: new Date(at),
  action: 'banks',
  outcome: 'success',
  status: 200,
  partner: 'acme',
  clientAddress: '127.0.0.1',
  reason: null,
  requestId,
  details: null,
});
const count = async (handle: DatabaseHandle) => Number((await sql<{ n: string }>`select count(*) as n from audit_log`.execute(handle.db)).rows[0]!.n);
const requestIds = async (handle: DatabaseHandle) =>
  (await sql<{ request_id: string }>`select request_id from audit_log order by request_id`.execute(handle.db)).rows.map((row) => row.request_id);

for (const backend of testBackends()) {
  describe(`audit retention on ${backend.name}`, () => {
    let handle: DatabaseHandle;
    before(async () => {
      handle = await backend.open();
    });
    after(() => handle.close());

    it('removes entries past AUDIT_RETENTION_DAYS and touches nothing younger', async () => {
      // Maintenance as it ran five days ago made the partitions for the days since.
      await createAuditRetention(handle.db, { retentionDays: 400, now: () => T0 - 5 * DAY_MS }).run();
      const repository = createAuditRepository(handle.db);
      const cutoff = T0 - 2 * DAY_MS;
      await repository.append([
        entry(dayStart(T0) - 4 * DAY_MS + 1_000, 'four-days'),
        entry(dayStart(cutoff) + 1, 'cutoff-day-start'),
        entry(cutoff - 60_000, 'a-minute-past-retention'),
        entry(cutoff + 60_000, 'a-minute-within-retention'),
        entry(T0 - DAY_MS, 'yesterday'),
        entry(T0, 'now'),
      ]);
      const report = await createAuditRetention(handle.db, { retentionDays: 2, now: () => T0, batchSize: 2 }).run();
      assert.equal(report.ran, true);
      const left = await requestIds(handle);
      assert.ok(left.includes('a-minute-within-retention') && left.includes('yesterday') && left.includes('now'), `younger entries kept: ${left}`);
      assert.ok(!left.includes('four-days'), 'an entry of a day wholly past retention is removed');
      if (backend.name === 'postgres') {
        // Whole partitions only: the cutoff's day stays, with its entries older than the cutoff, until it is wholly past.
        assert.equal(report.partitionsDropped >= 1, true);
        const partitions = await listPartitions(handle.db);
        assert.ok(!partitions.includes(partitionName(dayStart(T0) - 4 * DAY_MS)), 'the old partition is dropped');
        assert.ok(partitions.includes(partitionName(dayStart(cutoff))), 'the partition holding the cutoff stays');
      } else {
        assert.deepEqual(left, ['a-minute-within-retention', 'now', 'yesterday']);
        assert.equal(report.rowsDeleted, 3);
      }
      assert.ok(report.oldestAt !== null && report.oldestAt.getTime() <= cutoff + 60_000);
    });

    it('keeps refusing updates and deletes outside retention', async () => {
      await createAuditRepository(handle.db).append([entry(T0, 'kept')]);
      await assert.rejects(sql`delete from audit_log where request_id = 'kept'`.execute(handle.db), /append-only/);
      await assert.rejects(sql`update audit_log set partner = 'mallory' where request_id = 'kept'`.execute(handle.db), /append-only/);
      await assert.rejects(
        handle.db.transaction().execute(async (trx) => {
          await sql`set local partner_gateway.audit_retention = 'on'`.execute(trx);
          await sql`update audit_log set partner = 'mallory' where request_id = 'kept'`.execute(trx);
        }),
        /append-only/,
      );
    });

    it('never refuses a concurrent writer while partitions are made and dropped', async () => {
      const repository = createAuditRepository(handle.db);
      const before = await count(handle);
      let writes = 0;
      let stop = false;
      const writer = (async () => {
        while (!stop) {
          // A day the runs below never expire, whose partition is made while the writer writes (until then its
          // entries wait in the default partition on PostgreSQL).
          await repository.append(Array.from({ length: 20 }, (_, i) => entry(T0 + 7 * DAY_MS + i, `concurrent-${writes}-${i}`)));
          writes++;
        }
      })();
      // Each run sees a later day: it makes the next partition ahead and drops one more past retention.
      for (let day = 1; day <= 6; day++) await createAuditRetention(handle.db, { retentionDays: 3, now: () => T0 + day * DAY_MS, daysAhead: 2 }).run();
      stop = true;
      await writer;
      assert.ok(writes > 0);
      const concurrent = (await requestIds(handle)).filter((id) => id.startsWith('concurrent-'));
      assert.equal(concurrent.length, writes * 20, 'every entry written is there');
      assert.ok((await count(handle)) >= before);
      if (backend.name === 'postgres') {
        const partitions = await listPartitions(handle.db);
        assert.ok(partitions.includes(partitionName(dayStart(T0) + 8 * DAY_MS)), `made ahead: ${partitions.join(' ')}`);
      }
    });

    it('runs on one instance at a time: a second run meanwhile skips', { skip: backend.name === 'pglite' ? 'one process, one connection' : false }, async () => {
      const held = handle.db.transaction().execute(async (trx) => {
        await sql`select pg_advisory_xact_lock(hashtext(current_schema() || '.audit_log_maintenance'))`.execute(trx);
        const report = await createAuditRetention(handle.db, { retentionDays: 400 }).run();
        assert.equal(report.ran, false);
      });
      await held;
      assert.equal((await createAuditRetention(handle.db, { retentionDays: 400 }).run()).ran, true);
    });
  });

  describe(`the audit retention migration on ${backend.name}, on a table with rows`, () => {
    let handle: DatabaseHandle;
    before(async () => {
      handle = await backend.open({ upTo: '0003-unlogged-caches' });
    });
    after(() => handle.close());

    it('keeps every row, takes writes at once and moves the old rows into partitions', async () => {
      const repository = createAuditRepository(handle.db);
      const rows = 12_345;
      await sql`insert into audit_log (at, action, outcome, status, partner, request_id)
        select now() - make_interval(secs => g * 60), 'banks', 'success', 200, 'legacy-' || (g % 7), 'legacy-' || g
        from generate_series(1, ${rows}) g`.execute(handle.db);
      // Written as the gateway before this migration wrote (the columns of then).
      await sql`insert into audit_log (at, action, outcome, status, partner, request_id)
        values (${new Date(T0 - 500 * DAY_MS)}, 'banks', 'success', 200, 'acme', 'past-retention')`.execute(handle.db);
      const idsBefore = (await sql<{ id: string }>`select id from audit_log where request_id <> 'past-retention' order by id`.execute(handle.db)).rows.map((row) =>
        String(row.id),
      );

      await migrateToLatest(handle.db);
      await repository.append([entry(Date.now(), 'after-migration')]);
      const report = await createAuditRetention(handle.db, { retentionDays: 400, batchSize: 1_000 }).run();
      assert.equal(report.rowsDeleted, 1, 'only the entry past retention goes');
      if (backend.name === 'postgres') {
        assert.equal(report.legacyRowsMoved, rows);
        const legacy = await sql<{ found: string | null }>`select to_regclass('audit_log_legacy') as found`.execute(handle.db);
        assert.equal(legacy.rows[0]!.found, null, 'the emptied legacy table is dropped');
      }
      const idsAfter = (await sql<{ id: string }>`select id from audit_log order by id`.execute(handle.db)).rows.map((row) => String(row.id));
      assert.deepEqual(idsAfter.slice(0, -1), idsBefore, 'the same rows under the same ids');
      assert.ok(BigInt(idsAfter.at(-1)!) > BigInt(idsBefore.at(-1)!), 'new entries continue the id sequence');
      const found = await repository.query({ partner: 'legacy-3', limit: 5 });
      assert.equal(found.length, 5);
      assert.equal(found[0]!.count, 1);
      const last = await repository.lastCalls(['legacy-3', 'acme']);
      const newest = await sql<{ id: string }>`select id from audit_log where partner = 'legacy-3' order by at desc limit 1`.execute(handle.db);
      assert.equal(last.get('legacy-3')?.id, String(newest.rows[0]!.id), "the newest legacy call is the partner's last call");
      assert.ok(last.get('acme')!.at.getTime() > T0 - DAY_MS, 'the call written after the migration is the last call, not the older one');
    });
  });
}
