/**
 * One load generator run, in its own process so that it never shares an event loop with the server it
 * measures. Input: a JSON LoadSpec as the first argument. Output: one JSON LoadResult line on stdout.
 */
import { readFileSync } from 'node:fs';
import autocannon, { type Request } from 'autocannon';
import { countLines, RequestFileReader } from './support/request-file.js';

export interface LoadSpec {
  url: string;
  method: 'GET' | 'POST';
  headers?: Record<string, string>;
  body?: string;
  connections: number;
  durationSec: number;
  /** A file of request paths, one per line (fresh JWEs), read a chunk at a time; cycles if exhausted, unless `singleUse`. */
  pathsFile?: string;
  /**
   * A file of requests, one JSON object a line (`{ "path"?, "headers"?, "body"? }`, merged onto the spec's),
   * read a chunk at a time, each used once; cycles if exhausted, unless `singleUse`.
   */
  requestsFile?: string;
  /**
   * The lines of `requestsFile` or `pathsFile` may each be sent once only (client assertions, DPoP proofs,
   * JWEs): the run sends each line once and ends when they are spent, or at `durationSec`, whichever comes
   * first; its rate is then measured over the time it took.
   */
  singleUse?: boolean;
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
const lineFile = spec.requestsFile ?? spec.pathsFile;
const lines = lineFile ? new RequestFileReader(lineFile) : undefined;
/** The single-use lines there are: autocannon sends exactly this many (its `amount`), then stops. */
const amount = lineFile && spec.singleUse ? countLines(lineFile) : spec.amount;
/** The file's next line, from its start again once it is read to its end (never, with `singleUse`: `amount` stops first). */
function nextLine(): string {
  let line = lines!.next();
  if (line === undefined) {
    lines!.rewind();
    line = lines!.next();
  }
  if (line === undefined) throw new Error(`${lineFile} is empty`);
  return line;
}
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
    ...(spec.amount !== undefined ? { amount: spec.amount, timeout: 60 } : amount !== undefined ? { amount } : {}),
    headers: spec.headers ?? {},
    ...(spec.tls ? { tlsOptions: { cert: readFileSync(spec.tls.certFile), key: readFileSync(spec.tls.keyFile) } } : {}),
    ...(spec.body !== undefined ? { body: spec.body } : {}),
    ...(spec.requestsFile
      ? {
          requests: [
            {
              setupRequest: (request: Request): Request => {
                const { path, headers, body } = JSON.parse(nextLine()) as { path?: string; headers?: Record<string, string>; body?: string };
                return { ...request, ...(path ? { path } : {}), ...(body !== undefined ? { body } : {}), headers: { ...request.headers, ...headers } };
              },
            },
          ],
        }
      : {}),
    ...(spec.pathsFile
      ? {
          requests: [
            {
              setupRequest: (request: Request): Request => ({ ...request, path: nextLine() }),
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
// autocannon ignores the duration once given an amount: a single-use run stops at its duration by itself.
if (spec.singleUse && spec.amount === undefined) setTimeout(() => instance.stop(), spec.durationSec * 1000).unref();
instance.on('response', (_client: unknown, statusCode: number) => {
  statuses[statusCode] = (statuses[statusCode] ?? 0) + 1;
});
