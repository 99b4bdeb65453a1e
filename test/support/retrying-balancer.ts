import { createServer, request, Agent, type IncomingMessage, type Server } from 'node:http';

/** What the balancer saw: why it passed requests on to another instance. */
export interface BalancerCounts {
  /** Requests answered to the client (whatever the status). */
  answered: number;
  /** Attempts that failed before any response (connection refused or reset): the request was not answered. */
  connectionErrors: number;
  /** Attempts an instance answered 503 (shutting down, not ready, busy): passed on to the next instance. */
  retried503: number;
  /** Requests that ran out of attempts: these are what a client would see as dropped. */
  failed: number;
}

export interface RetryingBalancer {
  url: string;
  counts: BalancerCounts;
  close(): Promise<void>;
}

/**
 * A test stand-in for the nginx of deploy/nginx.conf: round-robin over `upstreams`, keep-alive connections to
 * them, and a request an instance refused, broke off before answering or answered 503 is passed to the next
 * instance (POSTs included, as `proxy_next_upstream error timeout http_503 non_idempotent` does), up to
 * `maxAttempts` times with a short pause once every instance has been tried.
 */
export async function startRetryingBalancer(upstreams: string[], maxAttempts = 6): Promise<RetryingBalancer> {
  const agent = new Agent({ keepAlive: true, maxSockets: 64 });
  const counts: BalancerCounts = { answered: 0, connectionErrors: 0, retried503: 0, failed: 0 };
  let next = 0;

  const forward = (target: string, incoming: IncomingMessage, body: Buffer) =>
    new Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: Buffer } | 'connection-error'>((resolve) => {
      const headers = { ...incoming.headers };
      delete headers.connection;
      const outgoing = request(`${target}${incoming.url ?? '/'}`, { method: incoming.method ?? 'GET', headers, agent }, (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () => resolve({ status: response.statusCode ?? 502, headers: response.headers, body: Buffer.concat(chunks) }));
        response.on('error', () => resolve('connection-error'));
      });
      outgoing.on('error', () => resolve('connection-error'));
      outgoing.end(body);
    });

  const server: Server = createServer(async (incoming, outgoing) => {
    const chunks: Buffer[] = [];
    for await (const chunk of incoming) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks);
    // Round-robin picks where a request starts; its retries go on to the next instances in turn.
    const first = next++;
    for (let attempt = 0; attempt < maxAttempts; attempt++) {
      if (attempt > 0 && attempt % upstreams.length === 0) await new Promise((resolve) => setTimeout(resolve, 200));
      const target = upstreams[(first + attempt) % upstreams.length]!;
      const result = await forward(target, incoming, body);
      if (result === 'connection-error') {
        counts.connectionErrors++;
        continue;
      }
      if (result.status === 503 && attempt < maxAttempts - 1) {
        counts.retried503++;
        continue;
      }
      counts.answered++;
      const headers = { ...result.headers };
      delete headers.connection;
      delete headers['keep-alive'];
      delete headers['transfer-encoding'];
      outgoing.writeHead(result.status, headers).end(result.body);
      return;
    }
    counts.failed++;
    outgoing.writeHead(502, { 'content-type': 'application/json' }).end('{"description_status":"no instance answered"}');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}`,
    counts,
    async close() {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
      agent.destroy();
    },
  };
}
