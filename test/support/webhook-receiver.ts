import { createPublicKey, verify } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A request a receiver got: its path and query, headers and body. */
export interface Received {
  url: string;
  headers: IncomingHttpHeaders;
  body: string;
}

/** A partner's webhook receiver on loopback: records every request, answers what `answer` says (200 by default). */
export function receiver() {
  const requests: Received[] = [];
  let answer: (received: Received) => number = () => 200;
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const received = { url: String(request.url), headers: request.headers, body: Buffer.concat(chunks).toString('utf8') };
      requests.push(received);
      response.writeHead(answer(received)).end();
    });
  });
  return {
    requests,
    answerWith: (next: (received: Received) => number) => (answer = next),
    async listen() {
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      return `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** Standard Webhooks' v1a: ed25519 over `${id}.${timestamp}.${body}`, verified with the endpoint's `whpk_` key (the npm package checks v1 only). */
export function verifiesV1a(publicKey: string, received: Received): boolean {
  const raw = Buffer.from(publicKey.replace(/^whpk_/, ''), 'base64');
  const key = createPublicKey({ key: { kty: 'OKP', crv: 'Ed25519', x: raw.toString('base64url') }, format: 'jwk' });
  const content = Buffer.from(`${received.headers['webhook-id']}.${received.headers['webhook-timestamp']}.${received.body}`);
  return String(received.headers['webhook-signature'])
    .split(' ')
    .filter((part) => part.startsWith('v1a,'))
    .some((part) => verify(null, content, key, Buffer.from(part.slice(4), 'base64')));
}
