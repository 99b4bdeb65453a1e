import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { Redis } from 'ioredis';
import type { DatabaseHandle } from '../../db/database.js';
import { testBackends } from '../../../test/support/test-databases.js';
import { createRedisThrottleStore } from './redis-throttle-store.js';
import type { ThrottlePolicy } from './throttle-policy.js';
import { createDatabaseThrottleStore, RESERVATION_HOLD_MS, type ThrottleStore } from './throttle-store.js';

const policy: ThrottlePolicy = { maxFailures: 10, windowMs: 900_000, lockoutMs: 60_000, lockoutMaxMs: 900_000, memoryMs: 12 * 3_600_000 };
const redisUrl = process.env.TEST_REDIS_URL;

/** The rules every store keeps, run against two store objects over one backend (two instances). */
function reservationRules(name: string, open: () => Promise<{ stores: [ThrottleStore, ThrottleStore]; close(): Promise<void> }>, skip: string | false = false) {
  describe(`throttle reservations in ${name}`, { skip }, () => {
    let stores: [ThrottleStore, ThrottleStore];
    let close: () => Promise<void>;
    before(async () => {
      ({ stores, close } = await open());
    });
    after(() => close());
    const key = () => `test:${randomBytes(6).toString('hex')}`;

    it('grants exactly maxFailures places to 60 concurrent reservations from two instances', async () => {
      const keys = [key(), key()];
      const now = Date.now();
      const results = await Promise.all(Array.from({ length: 60 }, (_, i) => stores[i % 2]!.reserve(keys, now)));
      assert.equal(results.filter((result) => result.granted).length, policy.maxFailures);
      assert.ok(results.every((result) => result.granted || result.retryAfterMs > 0));
    });

    it('grants one key exactly the places its live failures leave to 60 concurrent reservations from two instances', async () => {
      const keys = [key()];
      const now = Date.now();
      for (let i = 0; i < 3; i++) {
        const place = await stores[i % 2]!.reserve(keys, now);
        assert.ok(place.granted);
        await stores[(i + 1) % 2]!.release(keys, place.granted ? place.id : '', now, true);
      }
      const results = await Promise.all(Array.from({ length: 60 }, (_, i) => stores[i % 2]!.reserve(keys, now + 1)));
      assert.equal(results.filter((result) => result.granted).length, policy.maxFailures - 3);
      const refused = results.find((result) => !result.granted);
      assert.ok(refused && !refused.granted && refused.reason === 'full', 'full, not busy: someone failed');
    });

    it('when a failed place is settled while others ask for places, then they get exactly the places left: the failure and the place are never counted at once', async () => {
      // One place held and no failure: 9 places left before the settling, and 9 after (one failure, no place). Had a
      // reservation seen the failure counted and the place still held, it would have been refused with one left.
      for (let round = 0; round < 20; round++) {
        const keys = [key(), key()];
        const now = Date.now();
        const held = await stores[0].reserve(keys, now);
        assert.ok(held.granted);
        const [, ...results] = await Promise.all([
          stores[round % 2]!.release(keys, held.id, now, true),
          ...Array.from({ length: 12 }, (_, i) => stores[(round + i + 1) % 2]!.reserve(keys, now)),
        ]);
        assert.equal(results.filter((result) => result.granted).length, policy.maxFailures - 1, `round ${round}`);
      }
    });

    it('turns failed places into failures and a lock; refuses every reservation while locked', async () => {
      const keys = [key()];
      const now = Date.now();
      const places = await Promise.all(Array.from({ length: policy.maxFailures }, () => stores[0].reserve(keys, now)));
      const locks = await Promise.all(places.map((place, i) => stores[i % 2]!.release(keys, place.granted ? place.id : '', now, true)));
      assert.ok(Math.max(...locks) > 0, 'the tenth failure locks');
      const refused = await stores[1].reserve(keys, now + 1);
      assert.equal(refused.granted, false);
      assert.ok(!refused.granted && refused.retryAfterMs > 50_000, 'for the lockout');
      assert.ok((await stores[0].lockedFor(keys, now + 1)) > 0);
    });

    it('gives a place back uncounted when the password was right, and forgets a place held past its time', async () => {
      const keys = [key()];
      const now = Date.now();
      for (let i = 0; i < 50; i++) {
        const place = await stores[i % 2]!.reserve(keys, now);
        assert.ok(place.granted, `reservation ${i}`);
        assert.equal(await stores[(i + 1) % 2]!.release(keys, place.id, now, false), 0);
      }
      for (let i = 0; i < policy.maxFailures; i++) assert.ok((await stores[0].reserve(keys, now)).granted);
      assert.equal((await stores[0].reserve(keys, now)).granted, false, 'every place is held');
      assert.ok((await stores[1].reserve(keys, now + RESERVATION_HOLD_MS + 1)).granted, 'places held by a dead instance lapse');
    });
  });
}

for (const backend of testBackends()) {
  describe(`throttle locks in ${backend.name}`, () => {
    it('honours a lock already in the database (written before this process started), and one it writes itself', async (t) => {
      const handle = await backend.open();
      t.after(() => handle.close());
      const store = createDatabaseThrottleStore(handle.db, policy);
      const now = Date.now();
      const before = `test:${randomBytes(6).toString('hex')}`;
      await handle.db
        .insertInto('auth_throttle')
        .values({ key: before, failures: 0, window_started_at: new Date(now), lockouts: 1, locked_until: new Date(now + 30_000), last_failure_at: new Date(now) })
        .execute();
      assert.equal(await store.lockedFor([before], now), 30_000);
      assert.equal(await store.lockedFor([before], now + 30_000), 0, 'over when it ends');
      const own = `test:${randomBytes(6).toString('hex')}`;
      assert.equal(await store.lockedFor([own], now), 0);
      for (let i = 0; i < policy.maxFailures; i++) await store.recordFailure([own], now);
      assert.ok((await createDatabaseThrottleStore(handle.db, policy).lockedFor([own, before], now)) >= policy.lockoutMs, 'another store object sees it at once');
    });
  });

  reservationRules(backend.name, async () => {
    const handle: DatabaseHandle = await backend.open();
    return { stores: [createDatabaseThrottleStore(handle.db, policy), createDatabaseThrottleStore(handle.db, policy)], close: () => handle.close() };
  });
}

reservationRules(
  'Redis',
  async () => {
    const clients = [new Redis(redisUrl!), new Redis(redisUrl!)];
    const prefix = `test-${randomBytes(4).toString('hex')}:throttle:`;
    return {
      stores: [createRedisThrottleStore(clients[0]!, policy, prefix), createRedisThrottleStore(clients[1]!, policy, prefix)],
      close: async () => clients.forEach((client) => client.disconnect()),
    };
  },
  redisUrl ? false : 'TEST_REDIS_URL is not set',
);
