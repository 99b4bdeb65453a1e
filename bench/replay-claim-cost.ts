/**
 * `node --import tsx bench/replay-claim-cost.ts`: what the replay state's checks (issue 26) cost, in-process, each
 * pair measured in alternating rounds (BENCH_ROUNDS, default 5) and reported as the median µs per operation
 * and, in brackets, the fastest round's:
 *
 * - the embedded database's claim from memory (write-behind cache) alone, against `SingleUseJtis.spend` over it;
 * - a claim in the jwe_replay table without and with the sentinel looked at in the same statement, one at a time
 *   (a claim's latency) and 64 at once (a turn's batch);
 * - a Redis claim, SET NX against the script that also compares the sentinel (TEST_REDIS_URL; skipped without);
 * - a right password's two throttle statements (reserve, release), one caller and 16 at once, on auth_throttle
 *   UNLOGGED against LOGGED (as the statements are now: their commit does not wait for the disk).
 *
 * BENCH_BACKENDS picks the databases (default `pglite,postgres`; PostgreSQL through TEST_DATABASE_URL).
 */
import { randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { Redis } from 'ioredis';
import { sql } from 'kysely';
import { createJtiReplayRepository } from '../src/stores/replay/jti-replay-repository.js';
import { createRedisJtiReplayStore, redisSentinelKey } from '../src/stores/replay/redis-jti-replay-store.js';
import { writeTableSentinel } from '../src/stores/replay/replay-state-repository.js';
import { createSingleUseJtis } from '../src/stores/replay/single-use-jtis.js';
import { createWriteBehindReplayCache } from '../src/stores/replay/write-behind-replay-cache.js';
import { createDatabaseThrottleStore } from '../src/stores/throttle/throttle-store.js';
import { testBackends } from '../test/support/test-databases.js';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const kinds = (process.env.BENCH_BACKENDS ?? 'pglite,postgres').split(',');
const until = () => new Date(Date.now() + 120_000);
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
/** The median and, in brackets, the fastest round: on a shared machine the fastest is the least disturbed. */
const show = (values: number[]) => `${median(values).toFixed(1)} (${Math.min(...values).toFixed(1)})`;

/** Runs `a` and `b` in alternating rounds; prints each one's median µs per operation and b against a. */
async function compare(label: string, count: number, a: [string, () => Promise<unknown>], b: [string, () => Promise<unknown>], batch = 1): Promise<void> {
  const samples: Record<string, number[]> = { [a[0]]: [], [b[0]]: [] };
  const once = async (run: () => Promise<unknown>) => {
    const started = performance.now();
    for (let done = 0; done < count; done += batch) await Promise.all(Array.from({ length: batch }, run));
    return ((performance.now() - started) * 1000) / count;
  };
  await once(a[1]);
  await once(b[1]);
  for (let round = 0; round < ROUNDS; round++) {
    samples[a[0]]!.push(await once(a[1]));
    samples[b[0]]!.push(await once(b[1]));
  }
  console.log(`${label}: ${a[0]} ${show(samples[a[0]]!)} µs, ${b[0]} ${show(samples[b[0]]!)} µs`);
}

for (const backend of testBackends().filter((candidate) => kinds.includes(candidate.name))) {
  const handle = await backend.open();
  const db = handle.db;
  await writeTableSentinel(db, { epoch: 1, lostAt: 0 });
  const state = { ready: async () => {}, notBefore: () => 0, recover: async () => {} };
  const issuedAt = Math.floor(Date.now() / 1000);

  if (backend.name === 'pglite') {
    const cache = createWriteBehindReplayCache({ table: createJtiReplayRepository(db), now: Date.now });
    const jtis = createSingleUseJtis(cache, state);
    await compare('[pglite] claim from memory (write-behind)', 20_000, ['claim', () => cache.claim(randomUUID(), until())], ['spend', () => jtis.spend(randomUUID(), { issuedAt, rememberUntil: until() })]);
    await cache.close();
  }

  const plain = createJtiReplayRepository(db);
  const checked = createJtiReplayRepository(db, { epoch: () => 1 });
  await compare(`[${backend.name}] claim in the table, one at a time`, 500, ['unchecked', () => plain.claim(randomUUID(), until())], ['with sentinel', () => checked.claim(randomUUID(), until())]);
  await compare(`[${backend.name}] claim in the table, 64 at once`, 6_400, ['unchecked', () => plain.claim(randomUUID(), until())], ['with sentinel', () => checked.claim(randomUUID(), until())], 64);

  const throttle = createDatabaseThrottleStore(db, { maxFailures: 1_000_000, windowMs: 900_000, lockoutMs: 60_000, lockoutMaxMs: 900_000, memoryMs: 43_200_000 });
  const check = async (caller = 0) => {
    const keys = [`at:10.0.0.1 bench-${caller}`];
    const place = await throttle.reserve(keys, Date.now());
    if (place.granted) await throttle.release(keys, place.id, Date.now(), false);
  };
  const persistence = (logged: boolean) => async () => {
    await sql.raw(`alter table auth_throttle set ${logged ? 'logged' : 'unlogged'}`).execute(db);
  };
  for (const concurrency of [1, 16]) {
    const samples: Record<string, number[]> = { unlogged: [], logged: [] };
    const count = 160;
    for (let round = 0; round <= ROUNDS; round++) {
      for (const logged of [false, true]) {
        await persistence(logged)();
        const started = performance.now();
        // Each of `concurrency` callers checks its own key, as partners' logins do.
        await Promise.all(Array.from({ length: concurrency }, (_, caller) => (async () => {
          for (let index = 0; index < count / concurrency; index++) await check(caller);
        })()));
        if (round > 0) samples[logged ? 'logged' : 'unlogged']!.push(((performance.now() - started) * 1000) / count);
      }
    }
    console.log(`[${backend.name}] password check's reserve + release, ${concurrency} at once: unlogged ${show(samples.unlogged!)} µs, logged ${show(samples.logged!)} µs per check`);
  }
  await handle.close();
}

const redisUrl = process.env.TEST_REDIS_URL;
if (redisUrl) {
  const redis = new Redis(redisUrl);
  const prefix = `bench-${randomUUID().slice(0, 8)}:`;
  await redis.set(redisSentinelKey(prefix), '1:0');
  const plain = createRedisJtiReplayStore(redis, Date.now, `${prefix}jti:`);
  const checked = createRedisJtiReplayStore(redis, Date.now, `${prefix}jti:`, { key: redisSentinelKey(prefix), scope: `redis:${prefix}`, epoch: () => 1 });
  await compare('[redis] claim, one at a time', 5_000, ['SET NX', () => plain.claim(randomUUID(), until())], ['script with sentinel', () => checked.claim(randomUUID(), until())]);
  await compare('[redis] claim, 64 at once', 32_000, ['SET NX', () => plain.claim(randomUUID(), until())], ['script with sentinel', () => checked.claim(randomUUID(), until())], 64);
  const keys = await redis.keys(`${prefix}*`);
  for (let index = 0; index < keys.length; index += 1000) await redis.del(...keys.slice(index, index + 1000));
  redis.disconnect();
}
