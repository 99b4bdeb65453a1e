import { createServer, request as forward, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** What the proxy does with one request instead of forwarding it. */
export type Fault =
  | { status: number; headers?: Record<string, string>; body?: string }
  /** Never answers; the request stays open until the client gives up. */
  | 'hang'
  /** Forwards the request, lets the gateway act on it, then drops the connection instead of answering. */
  | 'lose-answer';

export interface SeenRequest {
  method: string;
  /** Path without the query string (which may carry a JWE). */
  path: string;
  query: URLSearchParams;
  index: number;
}

export interface FaultProxy {
  url: string;
  /** Every request that reached the proxy, in order. */
  requests: SeenRequest[];
  /** Resolves once `count` requests have arrived. */
  received(count: number): Promise<void>;
  close(): Promise<void>;
}

/**
 * A real HTTP proxy in front of the real gateway that injects a fault into the requests `faultFor` picks
 * and forwards the rest untouched: a network fault injector, not a stand-in for the gateway.
 */
export async function startFaultProxy(target: string, faultFor: (request: SeenRequest) => Fault | undefined): Promise<FaultProxy> {
  const requests: SeenRequest[] = [];
  const waiters: Array<{ count: number; resolve: () => void }> = [];
  const targetUrl = new URL(target);
  const server = createServer((incoming: IncomingMessage, outgoing: ServerResponse) => {
    const url = new URL(incoming.url ?? '/', 'http://proxy');
    const seen: SeenRequest = { method: incoming.method ?? 'GET', path: url.pathname, query: url.searchParams, index: requests.length };
    requests.push(seen);
    for (const waiter of waiters.filter((w) => requests.length >= w.count)) waiter.resolve();
    const fault = faultFor(seen);
    if (fault === 'hang') return;
    if (fault && fault !== 'lose-answer') {
      incoming.resume();
      outgoing.writeHead(fault.status, { 'content-type': 'application/json', ...fault.headers });
      outgoing.end(fault.body ?? '');
      return;
    }
    const upstream = forward(
      { host: targetUrl.hostname, port: targetUrl.port, method: incoming.method, path: incoming.url, headers: { ...incoming.headers, host: targetUrl.host } },
      (answer) => {
        if (fault === 'lose-answer') {
          answer.resume();
          answer.on('end', () => outgoing.socket?.destroy());
          return;
        }
        outgoing.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(outgoing);
      },
    );
    upstream.on('error', () => outgoing.destroy());
    incoming.pipe(upstream);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    received: (count) =>
      new Promise<void>((resolve) => {
        if (requests.length >= count) return resolve();
        waiters.push({ count, resolve });
      }),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A `{description_status}` fault, as the gateway words its errors. */
export function gatewayError(status: number, description: string, headers: Record<string, string> = {}): Fault {
  return { status, headers, body: JSON.stringify({ description_status: description }) };
}
