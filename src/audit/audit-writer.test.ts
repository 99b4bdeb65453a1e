import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { sql } from 'kysely';
import type { DatabaseHandle } from '../db/database.js';
import { testBackends } from '../../test/support/test-databases.js';
import type { AuditEntry } from './audit-entry.js';
import { createAuditRepository, type AuditRepository } from './audit-repository.js';
import { AuditEntryDroppedError, createAuditWriter } from './audit-writer.js';
import { waitFor } from '../../test/support/wait-for.js';

const entry = (i: number): AuditEntry => ({
  at: new Date(),
  action: 'login',
  outcome: i % 2 === 0 ? 'success' : 'failure',
  status: i % 2 === 0 ? 200 : 401,
  partner: `p${i % 3}`,
  clientAddress: '127.0.0.1',
  reason: i % 2 === 0 ? null : 'wrong_password',
  requestId: `r${i}`,
  details: null,
});

for (const backend of testBackends()) {
  describe(`audit writer on ${backend.name}`, () => {
    let handle: DatabaseHandle;
    before(async () => {
      handle = await backend.open();
    });
    after(() => handle.close());

    const count = async () => Number((await sql<{ n: string }>`select count(*) as n from audit_log`.execute(handle.db)).rows[0]!.n);

    it('gives up closing at its deadline even while a write hangs, and the entry stays for the next try', { skip: backend.name === 'postgres' ? false : 'a lock held by another session needs PostgreSQL' }, async () => {
      const writer = createAuditWriter(createAuditRepository(handle.db), { intervalMs: 10_000 });
      // Another session holds the table: the writer's insert waits (for the pool's 15 s query timeout).
      await handle.db.connection().execute(async (connection) => {
        await sql`begin`.execute(connection);
        await sql`lock table audit_log in access exclusive mode`.execute(connection);
        writer.record(entry(0));
        // Its own deadline's message: had close waited for the insert, the pool's query timeout would have
        // ended it with the database's error instead.
        await assert.rejects(writer.close(300), /audit trail not written within 300 ms: 1 entries left/);
        await sql`rollback`.execute(connection);
      });
      await writer.flush();
      assert.equal(writer.pending(), 0);
    });

    it('writes every entry accepted before close, in batches off the request path', async () => {
      const start = await count();
      const writer = createAuditWriter(createAuditRepository(handle.db), { intervalMs: 10_000, batchSize: 300 });
      for (let i = 0; i < 1000; i++) writer.record(entry(i));
      await writer.close();
      assert.equal(writer.pending(), 0);
      assert.equal((await count()) - start, 1000);
    });

    it('leaves entries recorded during a write to its timer unless they fill a batch, and flush writes what was queued when called', async () => {
      const start = await count();
      const real = createAuditRepository(handle.db);
      let statements = 0;
      let next = 10_000;
      let busy = true;
      let firstWritten!: () => void;
      const firstBatch = new Promise<void>((resolve) => (firstWritten = resolve));
      const repository: AuditRepository = {
        ...real,
        async append(entries) {
          statements++;
          const written = real.append(entries);
          // Requests go on being answered while a batch is written.
          await Promise.resolve();
          if (busy) for (let i = 0; i < 10; i++) writer.record(entry(next++));
          await written;
          if (statements === 1) firstWritten();
        },
      };
      const writer = createAuditWriter(repository, { intervalMs: 10_000, batchSize: 50 });
      for (let i = 0; i < 50; i++) writer.record(entry(i));
      // The full batch started a write; once it is written, the writer decides whether to go on.
      await firstBatch;
      await new Promise((resolve) => setImmediate(resolve));
      assert.equal(statements, 1, 'one full batch written; the 10 recorded meanwhile wait');
      assert.equal(writer.pending(), 10);
      await writer.flush();
      assert.equal(statements, 2, 'flush wrote the 10 it found, not the 10 recorded during its own write');
      assert.equal(writer.pending(), 10);
      busy = false;
      await writer.close();
      assert.equal(writer.pending(), 0);
      assert.equal((await count()) - start, 70);
    });

    it('keeps entries queued while the table cannot be written, and writes them once it can', async () => {
      const start = await count();
      const errors: unknown[] = [];
      const writer = createAuditWriter(createAuditRepository(handle.db), { intervalMs: 10_000, onError: (error) => errors.push(error) });
      await sql`alter table audit_log rename to audit_log_away`.execute(handle.db);
      try {
        for (let i = 0; i < 10; i++) writer.record(entry(i));
        await assert.rejects(writer.flush());
        assert.equal(writer.pending(), 10);
      } finally {
        await sql`alter table audit_log_away rename to audit_log`.execute(handle.db);
      }
      await writer.close();
      assert.equal((await count()) - start, 10);
    });

    it('stores a NUL or a lone surrogate as U+FFFD, in details too, rather than failing the batch', async () => {
      const repository = createAuditRepository(handle.db);
      const writer = createAuditWriter(repository, { intervalMs: 10_000 });
      writer.record({ ...entry(0), partner: 'nul\0login', requestId: 'storable-1' });
      writer.record({ ...entry(1), partner: 'lone\ud800surrogate', requestId: 'storable-2', details: { ['key\0']: ['value\0', { deep: '\udc00' }], at: new Date(0) } });
      writer.record({ ...entry(2), partner: 'pair\ud83d\ude00kept', requestId: 'storable-3' });
      await writer.flush();
      assert.equal(writer.dropped(), 0);
      const stored = (await repository.query({ limit: 10 })).filter((row) => row.requestId?.startsWith('storable-')).reverse();
      assert.deepEqual(
        stored.map((row) => row.partner),
        ['nul\ufffdlogin', 'lone\ufffdsurrogate', 'pair\ud83d\ude00kept'],
      );
      assert.deepEqual(stored[1]!.details, { 'key\ufffd': ['value\ufffd', { deep: '\ufffd' }], at: '1970-01-01T00:00:00.000Z' });
      await writer.close();
    });

    it('drops only an entry the database refuses for its data, and writes the entries around it', async () => {
      const start = await count();
      const reported: unknown[] = [];
      const writer = createAuditWriter(createAuditRepository(handle.db), { intervalMs: 10_000, batchSize: 4, onError: (error) => reported.push(error) });
      // A status beyond PostgreSQL's integer: a data exception (22003) that no sanitizing can prevent.
      for (let i = 0; i < 10; i++) writer.record(i === 5 ? { ...entry(i), status: 2 ** 31 } : entry(i));
      await writer.flush();
      assert.equal(writer.pending(), 0);
      assert.equal(writer.dropped(), 1);
      assert.equal((await count()) - start, 9);
      assert.equal(reported.length, 1);
      assert.ok(reported[0] instanceof AuditEntryDroppedError);
      assert.equal(reported[0].entry.requestId, 'r5');
      assert.equal((reported[0].cause as { code?: string }).code, '22003');
      writer.record(entry(10));
      await writer.close();
      assert.equal((await count()) - start, 10);
    });

    it('is append-only: the database refuses updates and deletes', async () => {
      const writer = createAuditWriter(createAuditRepository(handle.db));
      writer.record(entry(1));
      await writer.close();
      await assert.rejects(sql`update audit_log set partner = 'someone-else'`.execute(handle.db), /append-only/);
      await assert.rejects(sql`delete from audit_log`.execute(handle.db), /append-only/);
    });
  });
}

describe('audit writer while the database is down', () => {
  it('makes one attempt and one report per retry, not one per entry recorded meanwhile, and loses nothing', async () => {
    let down = true;
    let attempts = 0;
    let written = 0;
    const repository: Pick<AuditRepository, 'append'> = {
      async append(entries) {
        attempts++;
        if (down) throw new Error('connect ECONNREFUSED');
        written += entries.length;
      },
    };
    const reported: unknown[] = [];
    const writer = createAuditWriter(repository, { intervalMs: 10_000, batchSize: 100, onError: (error) => reported.push(error) });
    for (let i = 0; i < 1000; i++) writer.record(entry(i));
    await new Promise((resolve) => setImmediate(resolve));
    for (let i = 1000; i < 2000; i++) writer.record(entry(i));
    await new Promise((resolve) => setImmediate(resolve));
    assert.equal(attempts, 1);
    assert.equal(reported.length, 1);
    assert.equal(writer.pending(), 2000);
    down = false;
    await writer.close();
    assert.equal(written, 2000);
  });
});

describe('audit writer, entries counted over a window', () => {
  it('when like entries of one address come within a window, then one entry counts them, written once the window ends; another address keeps its own', async () => {
    const appended: Array<AuditEntry & { count?: number; lastRequestId?: string | null }> = [];
    const writer = createAuditWriter({ append: async (batch) => void appended.push(...batch) }, { intervalMs: 10 });
    const windowMs = 200;
    // At the start of a window, so that the three fall into one.
    while (Date.now() % windowMs > windowMs / 4) await new Promise((resolve) => setImmediate(resolve));
    const failed = (address: string, requestId: string): AuditEntry => ({ ...entry(1), action: 'session.sign-in', clientAddress: address, requestId, aggregate: { key: 'sso_provider_error', windowMs } });
    writer.record(failed('192.0.2.1', 'first'));
    writer.record(failed('192.0.2.1', 'second'));
    writer.record(failed('192.0.2.1', 'third'));
    writer.record(failed('192.0.2.2', 'other'));
    assert.equal(writer.pending(), 2, 'held, not yet queued');
    await waitFor(() => appended.length === 2, { timeout: 5_000, interval: 10 });
    const mine = appended.find((written) => written.clientAddress === '192.0.2.1')!;
    assert.deepEqual([mine.count, mine.requestId, mine.lastRequestId, 'aggregate' in mine], [3, 'first', 'third', false]);
    assert.equal(appended.find((written) => written.clientAddress === '192.0.2.2')!.count, 1);
    writer.record(failed('192.0.2.1', 'later'));
    await writer.close();
    assert.equal(appended.length, 3, 'what is held is written at close');
  });
});
