import { createServer } from 'node:net';
import { PartnerClient } from '../partner-client.js';
import type { PartnerClientOptions } from '../partner-client-options.js';

export interface SeenCall {
  method: string;
  path: string;
  query: URLSearchParams;
}

export interface TestClient {
  client: PartnerClient;
  /** Every request the client sent, through a pass-through around the real global fetch. */
  calls: SeenCall[];
  /** Every backoff the client asked to wait, in ms; the test sleep returns at once. */
  delays: number[];
  /** How many login requests the client sent. */
  logins(): number;
}

/**
 * A PartnerClient for `partner` on a gateway at `url` (both hosts), counting its requests and recording its
 * waits instead of sleeping them, so that tests assert counts and never durations.
 */
export function testClient(url: string, partner: { login: string; password: string }, options: Partial<PartnerClientOptions> = {}): TestClient {
  const calls: SeenCall[] = [];
  const delays: number[] = [];
  const client = new PartnerClient({
    authUrl: url,
    apiUrl: url,
    login: partner.login,
    password: partner.password,
    ...options,
    fetch: (input, init) => {
      const target = new URL(String(input));
      calls.push({ method: init?.method ?? 'GET', path: target.pathname, query: target.searchParams });
      return (options.fetch ?? globalThis.fetch)(input, init);
    },
    internals: {
      sleep: async (ms, signal) => {
        delays.push(ms);
        signal?.throwIfAborted();
      },
      random: () => 0.5,
      ...options.internals,
    },
  });
  return { client, calls, delays, logins: () => calls.filter((call) => call.path === '/api/v1/login/').length };
}

/** A port nothing listens on: bound once by the OS, then released. */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}
