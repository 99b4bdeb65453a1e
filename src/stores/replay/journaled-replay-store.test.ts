import assert from 'node:assert/strict';
import { randomBytes, randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { Redis } from 'ioredis';
import type { DatabaseHandle } from '../../db/database.js';
import { testBackends } from '../../../test/support/test-databases.js';
import { createJournaledReplayStore, type JournaledReplayStore } from './journaled-replay-store.js';
import { createJtiReplayRepository } from './jti-replay-repository.js';
import { createRedisJtiReplayStore } from './redis-jti-replay-store.js';

const url = process.env.TEST_REDIS_URL;
const WINDOW_MS = 151_000;

for (const backend of testBackends()) {
  describe(`JWE replay cache in Redis with a journal in the database (${backend.name})`, { skip: url ? false : 'TEST_REDIS_URL is not set' }, () => {
    let handle: DatabaseHandle;
    const clients: Redis[] = [];
    const prefix = `test-${randomBytes(4).toString('hex')}:jti:`;
    before(async () => {
      handle = await backend.open();
    });
    after(async () => {
      for (const client of clients) client.disconnect();
      await handle.close();
    });

    /** One instance's store, with its own connection to Redis (the real one) and the shared database. */
    function instance(announce?: (until: number) => void): { store: JournaledReplayStore; redis: Redis; fallbacks: unknown[] } {
      const redis = new Redis(url!, { maxRetriesPerRequest: 0, enableOfflineQueue: false, lazyConnect: false });
      redis.on('error', () => {});
      clients.push(redis);
      const fallbacks: unknown[] = [];
      const store = createJournaledReplayStore({
        redis: createRedisJtiReplayStore(redis, Date.now, prefix),
        database: createJtiReplayRepository(handle.db),
        now: Date.now,
        windowMs: WINDOW_MS,
        onFallback: (error) => fallbacks.push(error),
        ...(announce ? { announce } : {}),
      });
      return { store, redis, fallbacks };
    }
    const until = () => new Date(Date.now() + 120_000);
    const ready = (redis: Redis) => (redis.status === 'ready' ? Promise.resolve() : new Promise((resolve) => redis.once('ready', resolve)));
    /** Redis going away for this instance: its connection closes and every command fails at once. */
    const cut = async (redis: Redis) => {
      const ended = new Promise((resolve) => redis.once('end', resolve));
      redis.disconnect();
      await ended;
    };
    const restore = async (redis: Redis) => {
      await redis.connect();
      await ready(redis);
    };

    it('accepts a jti once through Redis and writes it down in the database', async () => {
      const { store, redis } = instance();
      await ready(redis);
      const jti = randomUUID();
      assert.equal(await store.claim(jti, until()), true);
      assert.equal(await store.claim(jti, until()), false);
      await store.flushJournal();
      assert.equal(store.journalPending(), 0);
      assert.equal(await createJtiReplayRepository(handle.db).claim(jti, until()), false, 'the database knows it');
    });

    it('writes a journal of thousands of jtis down in bounded statements', async () => {
      const { store, redis } = instance();
      await ready(redis);
      const jtis = Array.from({ length: 2_500 }, () => randomUUID());
      for (const jti of jtis) assert.equal(await store.claim(jti, until()), true);
      await store.flushJournal();
      assert.equal(store.journalPending(), 0);
      const known = await createJtiReplayRepository(handle.db).recordAll(jtis.map((jti) => ({ jti, rememberUntil: until() })));
      assert.equal(known.length, jtis.length, 'the database knows every one');
      assert.equal(store.conflicts(), 0);
    });

    it('drops from the journal, alone, counted, an entry the database cannot hold, and writes down the others', async () => {
      const { store, redis } = instance();
      await ready(redis);
      const good = [randomUUID(), randomUUID()];
      assert.equal(await store.claim(good[0]!, until()), true);
      assert.equal(await store.claim(`bad\0${randomUUID()}`, until()), true, 'Redis holds it (a claim that skipped the jti rule)');
      assert.equal(await store.claim(good[1]!, until()), true);
      await store.flushJournal();
      assert.equal(store.journalPending(), 0, 'nothing left blocking the journal');
      assert.equal(store.dropped(), 1);
      for (const jti of good) assert.equal(await createJtiReplayRepository(handle.db).claim(jti, until()), false, 'the database knows the good ones');
    });

    it('refuses, while Redis is away, a JWE accepted through Redis before, written down or still pending', async () => {
      const { store, redis, fallbacks } = instance();
      await ready(redis);
      const written = randomUUID();
      assert.equal(await store.claim(written, until()), true);
      await store.flushJournal();
      const pending = randomUUID();
      assert.equal(await store.claim(pending, until()), true);
      await cut(redis);
      assert.equal(await store.claim(written, until()), false);
      assert.equal(await store.claim(pending, until()), false);
      assert.ok(fallbacks.length >= 1, 'the calls went to the database');
      const fresh = randomUUID();
      assert.equal(await store.claim(fresh, until()), true, 'a new JWE is accepted by the database');
      assert.equal(await store.claim(fresh, until()), false);
    });

    it('refuses, once Redis is back, a JWE the database accepted during the outage', async () => {
      const { store, redis } = instance();
      await ready(redis);
      await cut(redis);
      const during = randomUUID();
      assert.equal(await store.claim(during, until()), true);
      await restore(redis);
      assert.equal(await store.claim(during, until()), false, 'Redis never saw it, the database did');
      const after = randomUUID();
      assert.equal(await store.claim(after, until()), true);
      assert.equal(await store.claim(after, until()), false);
    });

    it('refuses on an instance whose Redis is fine a JWE another accepted through the database, once told', async () => {
      const told: number[] = [];
      const a = instance();
      const b = instance((forMs) => {
        told.push(forMs);
        a.store.doubleCheckFor(forMs);
      });
      await Promise.all([ready(a.redis), ready(b.redis)]);
      await cut(b.redis);
      const jti = randomUUID();
      assert.equal(await b.store.claim(jti, until()), true);
      assert.equal(told.length, 1);
      assert.ok(told[0]! >= WINDOW_MS, 'at least the JWE lifetime, plus a margin for clocks');
      assert.equal(await a.store.claim(jti, until()), false, 'A claims in Redis and in the database');
    });
  });
}
