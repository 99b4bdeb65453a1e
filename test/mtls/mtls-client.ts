import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';

/** One answer, its body read as text (and as JSON when it is). */
export interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
  json: any;
}

export interface CallOptions {
  method?: string;
  /** application/x-www-form-urlencoded body. */
  form?: Record<string, string>;
  headers?: Record<string, string>;
  /** The client certificate and key (PEM) presented over https. */
  client?: { cert: string; key: string };
  /** The CA the https server's certificate is checked against. */
  ca?: string;
  /** The local address to connect from (127.0.0.2 is "the proxy" on Linux's loopback). */
  localAddress?: string;
}

/**
 * One request over a fresh connection (no agent, so a certificate is never carried over from another call), over
 * http or https as the URL says: what the mutual-TLS system tests use instead of fetch, which cannot present a
 * client certificate or pick its local address.
 */
export function call(url: string, options: CallOptions = {}): Promise<Answer> {
  const target = new URL(url);
  const body = options.form ? new URLSearchParams(options.form).toString() : undefined;
  const headers = { ...(body !== undefined ? { 'content-type': 'application/x-www-form-urlencoded' } : {}), ...options.headers };
  const send = target.protocol === 'https:' ? httpsRequest : httpRequest;
  return new Promise((resolve, reject) => {
    const req = send(
      {
        host: target.hostname,
        port: target.port,
        path: target.pathname + target.search,
        method: options.method ?? (body !== undefined ? 'POST' : 'GET'),
        headers,
        agent: false,
        ...(options.localAddress ? { localAddress: options.localAddress } : {}),
        ...(target.protocol === 'https:' ? { ca: options.ca, ...(options.client ? { cert: options.client.cert, key: options.client.key } : {}) } : {}),
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8').on('data', (chunk: string) => (text += chunk));
        res.on('end', () => {
          let json: unknown;
          try {
            json = text ? JSON.parse(text) : undefined;
          } catch {
            json = undefined;
          }
          resolve({ status: res.statusCode ?? 0, headers: res.headers, text, json });
        });
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

/** The claims of a JWT, unverified (the tests read what the gateway put in its own token). */
export function jwtClaims(token: string): Record<string, any> {
  return JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString('utf8'));
}
