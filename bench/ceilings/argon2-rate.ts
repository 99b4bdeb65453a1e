/**
 * Ceiling (c): raw argon2id verifications per second at the gateway's parameters, with as many running at
 * once as the gateway allows (ARGON2_CONCURRENCY, default the number of cores), after an unmeasured warm-up
 * of the same kind. Arguments: seconds measured, seconds of warm-up. Prints one JSON line.
 */
import { availableParallelism } from 'node:os';
import { hash, verify } from '@node-rs/argon2';

const durationMs = Number(process.argv[2] ?? 10) * 1000;
const warmupMs = Number(process.argv[3] ?? 0) * 1000;
const concurrency = Number(process.env.ARGON2_CONCURRENCY ?? availableParallelism());
const encoded = await hash('benchmark password', { algorithm: 2, memoryCost: 19_456, timeCost: 2, parallelism: 1 });
/** Verifications completed by `concurrency` loops running for `ms`. */
async function run(ms: number): Promise<number> {
  let done = 0;
  const until = Date.now() + ms;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (Date.now() < until) {
        await verify(encoded, 'benchmark password');
        done++;
      }
    }),
  );
  return done;
}
if (warmupMs > 0) await run(warmupMs);
const started = Date.now();
const done = await run(durationMs);
process.stdout.write(`${JSON.stringify({ rps: Math.round(done / ((Date.now() - started) / 1000)), concurrency })}\n`);
