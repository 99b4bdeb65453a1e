import { createServer } from 'node:net';
import { PartnerClient } from '../src/partner-client.js';
import type { PartnerClientOptions } from '../src/partner-client-options.js';

export interface SeenCall {
  method: string;
  path: string;
  query: URLSearchParams;
  /** The request's headers, lower-cased names. */
  headers: Record<string, string>;
  /** The request body when it was a string (login, refresh, OAuth forms). */
  body?: string;
}

export interface TestClient {
  client: PartnerClient;
  /** Every request the client sent, through a pass-through around the real global fetch. */
  calls: SeenCall[];
  /** Every backoff the client asked to wait, in ms; the test sleep returns at once. */
  delays: number[];
  /** How many login requests the client sent. */
  logins(): number;
  /** How many refresh requests the client sent. */
  refreshes(): number;
  /** How many logout requests the client sent. */
  logouts(): number;
  /** The refresh token of every refresh request the client sent, in order. */
  sentRefreshTokens: string[];
  /** The refresh token of every login or refresh answer the client received, in order. */
  issuedRefreshTokens: string[];
}

const LOGIN = '/api/v1/login/';
const REFRESH = '/api/v1/token/refresh/';
const LOGOUT = '/api/v1/logout/';

/**
 * A PartnerClient for `partner` on a gateway at `url` (both hosts), counting its requests and recording its
 * waits instead of sleeping them, so that tests assert counts and never durations.
 */
export function testClient(url: string, partner: { login: string; password?: string }, options: Partial<PartnerClientOptions> = {}): TestClient {
  const calls: SeenCall[] = [];
  const delays: number[] = [];
  const sentRefreshTokens: string[] = [];
  const issuedRefreshTokens: string[] = [];
  const client = new PartnerClient({
    authUrl: url,
    apiUrl: url,
    login: partner.login,
    ...(partner.password === undefined ? {} : { password: partner.password }),
    ...options,
    fetch: async (input, init) => {
      const target = new URL(String(input));
      const headers = Object.fromEntries(new Headers(init?.headers).entries());
      calls.push({ method: init?.method ?? 'GET', path: target.pathname, query: target.searchParams, headers, ...(typeof init?.body === 'string' ? { body: init.body } : {}) });
      if (target.pathname === REFRESH) sentRefreshTokens.push(JSON.parse(String(init?.body)).refresh_token);
      const response = await (options.fetch ?? globalThis.fetch)(input, init);
      if ((target.pathname === LOGIN || target.pathname === REFRESH) && response.ok) {
        const issued = (await response.clone().json().catch(() => ({}))) as { refresh_token?: unknown };
        if (typeof issued.refresh_token === 'string') issuedRefreshTokens.push(issued.refresh_token);
      }
      return response;
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
  const count = (path: string) => () => calls.filter((call) => call.path === path).length;
  return { client, calls, delays, logins: count(LOGIN), refreshes: count(REFRESH), logouts: count(LOGOUT), sentRefreshTokens, issuedRefreshTokens };
}

/** A port nothing listens on: bound once by the OS, then released. */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}
