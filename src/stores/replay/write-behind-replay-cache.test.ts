import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { DatabaseHandle } from '../../db/database.js';
import { testBackends } from '../../../test/support/test-databases.js';
import { createJtiReplayRepository } from './jti-replay-repository.js';
import { createWriteBehindReplayCache } from './write-behind-replay-cache.js';

const until = () => new Date(Date.now() + 60_000);

for (const backend of testBackends()) {
  describe(`the write-behind replay cache (${backend.name})`, () => {
    let handle: DatabaseHandle;
    before(async () => {
      handle = await backend.open();
    });
    after(() => handle.close());

    /** The replay table, counting the statements the cache sends it. */
    function countedTable() {
      const table = createJtiReplayRepository(handle.db);
      const counts = { claims: 0, writes: 0 };
      return {
        counts,
        table: {
          ...table,
          claim: (jti: string, at: Date) => {
            counts.claims += 1;
            return table.claim(jti, at);
          },
          recordAll: (entries: ReadonlyArray<{ jti: string; rememberUntil: Date }>) => {
            counts.writes += 1;
            return table.recordAll(entries);
          },
        },
      };
    }

    it('accepts a jti claimed 100 times at once exactly once', async () => {
      const cache = createWriteBehindReplayCache({ table: createJtiReplayRepository(handle.db), now: Date.now });
      const results = await Promise.all(Array.from({ length: 100 }, () => cache.claim('wb-same', until())));
      assert.equal(results.filter(Boolean).length, 1);
      await cache.close();
    });

    it('answers from memory and writes the table behind in groups, not a statement per claim', async () => {
      const { table, counts } = countedTable();
      const cache = createWriteBehindReplayCache({ table, now: Date.now, writeEveryMs: 60_000 });
      const jtis = Array.from({ length: 300 }, (_, index) => `wb-group-${index}`);
      assert.deepEqual(await Promise.all(jtis.map((jti) => cache.claim(jti, until()))), jtis.map(() => true));
      assert.deepEqual(counts, { claims: 0, writes: 0 });
      assert.equal(cache.pending(), 300);
      await cache.close();
      assert.equal(counts.writes, 1);
      assert.equal(cache.pending(), 0);
      // Written: the table itself refuses them now.
      assert.deepEqual(await createJtiReplayRepository(handle.db).recordAll([{ jti: 'wb-group-7', rememberUntil: until() }]), ['wb-group-7']);
    });

    it('refuses after a restart what it accepted before: closing writes it, starting reloads it', async () => {
      const first = createWriteBehindReplayCache({ table: createJtiReplayRepository(handle.db), now: Date.now, writeEveryMs: 60_000 });
      assert.equal(await first.claim('wb-restart', until()), true);
      await first.close();
      const { table, counts } = countedTable();
      const second = createWriteBehindReplayCache({ table, now: Date.now });
      assert.equal(await second.claim('wb-restart', until()), false);
      assert.equal(counts.claims, 0, 'answered from the reloaded memory');
      await second.close();
    });

    it('forgets nothing live when memory is full: claims go to the table, and replays of them are refused', async () => {
      // An empty table (the other rules' rows would fill this memory at its start).
      await handle.db.deleteFrom('jwe_replay').execute();
      const { table, counts } = countedTable();
      const cache = createWriteBehindReplayCache({ table, now: Date.now, maxEntries: 5, writeEveryMs: 60_000 });
      const jtis = Array.from({ length: 12 }, (_, index) => `wb-full-${index}`);
      for (const jti of jtis) assert.equal(await cache.claim(jti, until()), true, jti);
      assert.equal(counts.claims, 7, 'the claims beyond memory went to the table');
      for (const jti of jtis) assert.equal(await cache.claim(jti, until()), false, `${jti} again`);
      await cache.close();
    });

    it('keeps the table as the authority after a start that found more live jtis than memory takes', async () => {
      const table = createJtiReplayRepository(handle.db);
      const jtis = Array.from({ length: 8 }, (_, index) => `wb-reload-${index}`);
      await table.recordAll(jtis.map((jti, index) => ({ jti, rememberUntil: new Date(Date.now() + 600_000 + index) })));
      const cache = createWriteBehindReplayCache({ table, now: Date.now, maxEntries: 3 });
      for (const jti of jtis) assert.equal(await cache.claim(jti, until()), false, jti);
      await cache.close();
    });

    it('claims in the table itself when the table could not be read at start', async () => {
      const { table, counts } = countedTable();
      const errors: unknown[] = [];
      const cache = createWriteBehindReplayCache({
        table: { ...table, live: () => Promise.reject(new Error('database away')) },
        now: Date.now,
        onWriteError: (error) => errors.push(error),
      });
      assert.equal(await cache.claim('wb-unread', until()), true);
      assert.equal(await cache.claim('wb-unread', until()), false);
      assert.equal(counts.claims, 2, 'both went to the table');
      assert.equal(errors.length, 1);
      await cache.close();
    });

    it('remembers a jti no longer than asked, in memory as in the table', async () => {
      let clock = Date.now();
      const cache = createWriteBehindReplayCache({ table: createJtiReplayRepository(handle.db), now: () => clock });
      assert.equal(await cache.claim('wb-expiring', new Date(clock + 1_000)), true);
      clock += 2_000;
      await cache.purgeExpired(new Date(clock));
      assert.equal(await cache.claim('wb-expiring', new Date(clock + 1_000)), true, 'claimable again once its window has passed');
      await cache.close();
    });
  });
}
