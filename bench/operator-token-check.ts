/**
 * `node --import tsx bench/operator-token-check.ts`: what checking an operator's personal token costs on the admin
 * path, against ADMIN_TOKEN's comparison, in-process on the embedded database (BENCH_BACKENDS=postgres for
 * PostgreSQL via TEST_DATABASE_URL): a token known to the instance (a SHA-256 and a map lookup), one looked up in
 * the database (CACHE_TTL_MS=0: what the first request after CACHE_TTL_MS or a change notice costs), and a whole `GET /admin/v1/me` injected with each credential. Prints microseconds per check.
 */
import { performance } from 'node:perf_hooks';
import { startTestGateway, TEST_ADMIN_TOKEN } from '../test/support/test-gateway.js';
import { testBackends } from '../test/support/test-databases.js';

const kinds = (process.env.BENCH_BACKENDS ?? 'pglite').split(',');
for (const backend of testBackends().filter((candidate) => kinds.includes(candidate.name))) {
  const t = await startTestGateway(backend);
  const operator = await t.addOperator('operator');
  const auth = t.gateway.operatorAuth;
  const time = async (label: string, count: number, run: () => Promise<unknown>) => {
    for (let index = 0; index < Math.min(1000, count); index++) await run();
    const started = performance.now();
    for (let index = 0; index < count; index++) await run();
    const micros = ((performance.now() - started) * 1000) / count;
    console.log(`[${backend.name}] ${label}: ${micros.toFixed(1)} µs`);
  };
  await time('personal token known to the instance (withToken)', 100_000, () => auth.withToken(operator.token, '127.0.0.1'));
  // CACHE_TTL_MS=0 keeps nothing: every check is the lookup a first request (or one after a change) makes.
  const uncached = await startTestGateway(backend, { env: { CACHE_TTL_MS: '0' } });
  const other = await uncached.addOperator('operator');
  await time('personal token looked up in the database (withToken, CACHE_TTL_MS=0)', 5_000, () => uncached.gateway.operatorAuth.withToken(other.token, '127.0.0.1'));
  await uncached.close();
  for (const [label, authorization] of [
    ['GET /admin/v1/me with ADMIN_TOKEN (inject)', `Bearer ${TEST_ADMIN_TOKEN}`],
    ['GET /admin/v1/me with a personal token (inject)', `Bearer ${operator.token}`],
  ] as const) {
    await time(label, 20_000, () => t.admin.inject({ method: 'GET', url: '/admin/v1/me', headers: { authorization } }));
  }
  await t.close();
}
process.exit(0);
