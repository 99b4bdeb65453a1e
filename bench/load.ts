/**
 * One load generator run, in its own process so that it never shares an event loop with the server it
 * measures. Input: a JSON LoadSpec as the first argument. Output: one JSON LoadResult line on stdout.
 */
import { readFileSync } from 'node:fs';
import autocannon, { type Request } from 'autocannon';

export interface LoadSpec {
  url: string;
  method: 'GET' | 'POST';
  headers?: Record<string, string>;
  body?: string;
  connections: number;
  durationSec: number;
  /** A file of request paths, one per line, each used once (fresh JWEs); cycles if exhausted. */
  pathsFile?: string;
  /**
   * A file of requests, one JSON object a line (`{ "path"?, "headers"?, "body"? }`, merged onto the spec's),
   * each used once (fresh client assertions and DPoP proofs); cycles if exhausted.
   */
  requestsFile?: string;
  /** Requests per second over all connections (the soak's steady load); as fast as possible when absent. */
  rate?: number;
  /** Exactly this many requests, every one answered before the run ends (instead of `durationSec`): for counting. */
  amount?: number;
  /** A client certificate and key (PEM files) presented on every https connection (mutual TLS). */
  tls?: { certFile: string; keyFile: string };
}

export interface LoadResult {
  ok: number;
  failed: number;
  /** Requests that got no answer (socket errors, timeouts). */
  unanswered: number;
  rps: number;
  p50: number;
  p99: number;
  statuses: Record<string, number>;
}

const spec = JSON.parse(process.argv[2]!) as LoadSpec;
const paths = spec.pathsFile ? readFileSync(spec.pathsFile, 'utf8').split('\n').filter(Boolean) : undefined;
const prepared = spec.requestsFile
  ? readFileSync(spec.requestsFile, 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line) as { path?: string; headers?: Record<string, string>; body?: string })
  : undefined;
let next = 0;
const statuses: Record<string, number> = {};

const instance = autocannon(
  {
    url: spec.url,
    method: spec.method,
    connections: spec.connections,
    duration: spec.durationSec,
    ...(spec.rate !== undefined ? { overallRate: spec.rate } : {}),
    // A counted run waits a minute for each answer: under load a login may wait its 10 s for a place and then
    // for argon2, and one given up at autocannon's default 10 s would be audited by the gateway but not counted.
    ...(spec.amount !== undefined ? { amount: spec.amount, timeout: 60 } : {}),
    headers: spec.headers ?? {},
    ...(spec.tls ? { tlsOptions: { cert: readFileSync(spec.tls.certFile), key: readFileSync(spec.tls.keyFile) } } : {}),
    ...(spec.body !== undefined ? { body: spec.body } : {}),
    ...(prepared
      ? {
          requests: [
            {
              setupRequest: (request: Request): Request => {
                const { path, headers, body } = prepared[next++ % prepared.length]!;
                return { ...request, ...(path ? { path } : {}), ...(body !== undefined ? { body } : {}), headers: { ...request.headers, ...headers } };
              },
            },
          ],
        }
      : {}),
    ...(paths
      ? {
          requests: [
            {
              setupRequest: (request: Request): Request => ({ ...request, path: paths[next++ % paths.length]! }),
            },
          ],
        }
      : {}),
  },
  (error, result) => {
    if (error) throw error;
    const ok = result['2xx'];
    const output: LoadResult = {
      ok,
      failed: result.non2xx + result.errors + result.timeouts,
      unanswered: result.errors + result.timeouts,
      rps: Math.round(ok / result.duration),
      p50: result.latency.p50,
      p99: result.latency.p99,
      statuses,
    };
    process.stdout.write(`${JSON.stringify(output)}\n`);
  },
);
instance.on('response', (_client: unknown, statusCode: number) => {
  statuses[statusCode] = (statuses[statusCode] ?? 0) + 1;
});
