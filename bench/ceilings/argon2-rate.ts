/**
 * Ceiling (c): raw argon2id verifications per second at the gateway's parameters, with as many running at
 * once as the gateway allows (ARGON2_CONCURRENCY, default the number of cores). Prints one JSON line.
 */
import { availableParallelism } from 'node:os';
import { hash, verify } from '@node-rs/argon2';

const durationMs = Number(process.argv[2] ?? 10) * 1000;
const concurrency = Number(process.env.ARGON2_CONCURRENCY ?? availableParallelism());
const encoded = await hash('benchmark password', { algorithm: 2, memoryCost: 19_456, timeCost: 2, parallelism: 1 });
let done = 0;
const until = Date.now() + durationMs;
const started = Date.now();
await Promise.all(
  Array.from({ length: concurrency }, async () => {
    while (Date.now() < until) {
      await verify(encoded, 'benchmark password');
      done++;
    }
  }),
);
process.stdout.write(`${JSON.stringify({ rps: Math.round(done / ((Date.now() - started) / 1000)), concurrency })}\n`);
