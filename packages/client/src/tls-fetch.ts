import { Agent, request } from 'node:https';

/**
 * A client certificate and its private key (PEM), and optionally the CA certificates that issued the
 * gateway's own certificate when it is not one the system trusts.
 *
 * @example
 * ```ts
 * const tls: ClientTls = { cert: readFileSync('partner.crt', 'utf8'), key: readFileSync('partner.key', 'utf8') };
 * ```
 */
export interface ClientTls {
  cert: string;
  /** Never logged, never put in an error message. */
  key: string;
  ca?: string;
}

/**
 * The subset of `fetch` the client uses (method, headers, a string body, a signal; the answer as a
 * `Response`), over `node:https` with the partner's client certificate on every connection: Node's own
 * fetch takes no client certificate without the undici package, which this SDK does not depend on.
 * Connections are kept alive and reused, so the TLS handshake is paid once per connection, not per call.
 *
 * @example
 * ```ts
 * const fetch = createTlsFetch({ cert, key });
 * const response = await fetch('https://gateway.example:8443/healthz');
 * ```
 */
export function createTlsFetch(tls: ClientTls): typeof globalThis.fetch {
  const agent = new Agent({ keepAlive: true, cert: tls.cert, key: tls.key, ...(tls.ca ? { ca: tls.ca } : {}), minVersion: 'TLSv1.2' });
  return ((input: string | URL | Request, init: RequestInit = {}) =>
    new Promise<Response>((resolve, reject) => {
      const url = new URL(String(input instanceof Request ? input.url : input));
      if (url.protocol !== 'https:') {
        reject(new TypeError('A client certificate is sent over https only: use the gateway\'s https address'));
        return;
      }
      const headers = new Headers(init.headers);
      const outgoing = request(url, { method: init.method ?? 'GET', agent, headers: Object.fromEntries(headers), signal: init.signal ?? undefined }, (incoming) => {
        const chunks: Buffer[] = [];
        incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
        incoming.on('error', reject);
        incoming.on('end', () => {
          const answer = new Headers();
          for (const [name, value] of Object.entries(incoming.headers)) {
            for (const each of Array.isArray(value) ? value : value === undefined ? [] : [value]) answer.append(name, each);
          }
          const status = incoming.statusCode ?? 502;
          const body = status === 204 || status === 304 ? null : Buffer.concat(chunks);
          resolve(new Response(body, { status, statusText: incoming.statusMessage ?? '', headers: answer }));
        });
      });
      outgoing.on('error', reject);
      outgoing.end(typeof init.body === 'string' ? init.body : undefined);
    })) as typeof globalThis.fetch;
}
