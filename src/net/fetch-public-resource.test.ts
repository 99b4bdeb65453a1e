import assert from 'node:assert/strict';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createServer as createTlsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { createSecureContext } from 'node:tls';
import { after, before, describe, it } from 'node:test';
import { createTestPki } from '../../test/support/openssl-certificates.js';
import { waitFor } from '../../test/support/wait-for.js';
import { fetchPublicResource, pinnedLookup, type PublicFetchOptions, type ResolvedAddress } from './fetch-public-resource.js';
import { PublicFetchError, type PublicFetchRefusal } from './public-fetch-error.js';

const listen = (server: Server, host: string, port = 0) =>
  new Promise<number>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve((server.address() as AddressInfo).port));
  });

const refusal = (reason: PublicFetchRefusal, message?: RegExp) => (error: unknown) => {
  assert.ok(error instanceof PublicFetchError, String(error));
  assert.equal(error.reason, reason, error.message);
  if (message) assert.match(error.message, message);
  return true;
};

describe('fetching a public resource from a loopback server (outside production)', () => {
  let server: Server;
  let base: string;
  const requests: IncomingMessage[] = [];
  const openBodies = new Set<ServerResponse>();
  const MAX = 1024;
  const options: PublicFetchOptions = { maxBytes: MAX, timeoutMs: 10_000, production: false };
  const routes: Record<string, (response: ServerResponse) => void> = {
    '/ok': (response) => response.writeHead(200, { 'content-type': 'application/xml', etag: '"v1"' }).end('<ED807/>'),
    '/exactly-max': (response) => response.end('x'.repeat(MAX)),
    '/declared-too-large': (response) => response.writeHead(200, { 'content-length': String(MAX + 1) }).end('x'),
    // Past the limit and never ending: only a fetch that stops reading at the limit comes back without its timeout.
    '/streams-forever': (response) => {
      openBodies.add(response);
      response.on('close', () => openBodies.delete(response));
      response.writeHead(200);
      response.write('x'.repeat(MAX / 2));
      response.write('x'.repeat(MAX / 2 + 1));
    },
    '/stalls-before-headers': () => {},
    '/stalls-in-body': (response) => response.writeHead(200, { 'content-length': '10' }).write('12345'),
    '/not-modified': (response) => response.writeHead(304).end(),
    '/fails': (response) => response.writeHead(500).end('internal detail'),
    '/redirect': (response) => response.writeHead(302, { location: '/ok' }).end(),
    '/redirect-private': (response) => response.writeHead(302, { location: 'http://10.0.0.5/ok' }).end(),
  };

  before(async () => {
    server = createServer((request, response) => {
      requests.push(request);
      (routes[request.url ?? ''] ?? ((answer: ServerResponse) => answer.writeHead(404).end()))(response);
    });
    base = `http://127.0.0.1:${await listen(server, '127.0.0.1')}`;
  });
  after(() => {
    server.closeAllConnections();
    server.close();
  });

  it('when the resource is within the limits, then its bytes, status, type and headers come back, asked for without content coding', async () => {
    const resource = await fetchPublicResource(`${base}/ok`, { ...options, accept: 'application/xml', headers: { 'if-none-match': '"v0"' } });
    assert.equal(Buffer.from(resource.bytes).toString(), '<ED807/>');
    assert.equal(resource.status, 200);
    assert.equal(resource.contentType, 'application/xml');
    assert.equal(resource.headers.etag, '"v1"');
    assert.equal(resource.url.href, `${base}/ok`);
    const sent = requests.at(-1)!.headers;
    assert.deepEqual([sent.accept, sent['accept-encoding'], sent['if-none-match']], ['application/xml', 'identity', '"v0"']);
    assert.equal((await fetchPublicResource(`${base}/exactly-max`, options)).bytes.byteLength, MAX);
  });

  it('when the body is declared larger than maxBytes, then it is refused unread', async () => {
    await assert.rejects(fetchPublicResource(`${base}/declared-too-large`, options), refusal('too_large', /^larger than 1024 bytes$/));
  });

  it('when the body streams past maxBytes, then the fetch stops there and closes the connection', async () => {
    await assert.rejects(fetchPublicResource(`${base}/streams-forever`, options), refusal('too_large'));
    await waitFor(() => openBodies.size === 0, { message: 'the server to see the connection closed' });
  });

  it('when the server stalls before its headers or within its body, then the fetch ends at its time limit', async () => {
    for (const path of ['/stalls-before-headers', '/stalls-in-body']) {
      await assert.rejects(fetchPublicResource(`${base}${path}`, { ...options, timeoutMs: 100 }), refusal('timeout', /^took longer than 100 ms$/));
    }
  });

  it('when the resolver never answers, then the fetch ends at its time limit', async () => {
    const lookup = () => new Promise<ResolvedAddress[]>(() => {});
    await assert.rejects(fetchPublicResource(`http://localhost:1/x`, { ...options, timeoutMs: 100, lookup }), refusal('timeout'));
  });

  it('when the caller aborts, then the fetch ends as aborted', async () => {
    const controller = new AbortController();
    routes['/aborts'] = () => controller.abort();
    await assert.rejects(fetchPublicResource(`${base}/aborts`, { ...options, signal: controller.signal }), refusal('aborted'));
  });

  it('when the answer is not 2xx, then it is refused with its status, except a 304 to a conditional request', async () => {
    await assert.rejects(fetchPublicResource(`${base}/fails`, options), (error) => refusal('status', /^answered HTTP 500$/)(error) && (error as PublicFetchError).status === 500);
    const notModified = await fetchPublicResource(`${base}/not-modified`, { ...options, headers: { 'if-none-match': '"v1"' } });
    assert.deepEqual([notModified.status, notModified.bytes.byteLength], [304, 0]);
  });

  it('when the answer redirects, then it is not followed unless allowed, and a followed target is checked again', async () => {
    await assert.rejects(fetchPublicResource(`${base}/redirect`, options), (error) => refusal('redirect')(error) && (error as PublicFetchError).status === 302);
    const followed = await fetchPublicResource(`${base}/redirect`, { ...options, maxRedirects: 1 });
    assert.equal(followed.url.href, `${base}/ok`);
    const before = requests.length;
    await assert.rejects(fetchPublicResource(`${base}/redirect-private`, { ...options, maxRedirects: 1 }), refusal('scheme', /^redirects to a URL that must be an https URL/));
    assert.equal(requests.length, before + 1, 'only the redirecting request was made');
  });

  it('when the connection fails, then the error names its code and no address', async () => {
    const closed = createServer();
    const port = await listen(closed, '127.0.0.1');
    await new Promise((resolve) => closed.close(resolve));
    await assert.rejects(fetchPublicResource(`http://127.0.0.1:${port}/`, options), refusal('connect', /^the connection failed \(ECONNREFUSED\)$/));
  });
});

describe('the connection goes only to the checked addresses (DNS rebinding)', () => {
  const servers: Server[] = [];
  let port: number;

  before(async () => {
    // The same port on two loopback addresses: which one answers tells where the connection went.
    const first = createServer((_request, response) => response.end('checked'));
    port = await listen(first, '127.0.0.2');
    const second = createServer((_request, response) => response.end('rebound'));
    await listen(second, '127.0.0.3', port);
    servers.push(first, second);
  });
  after(() => servers.forEach((server) => server.close()));

  it('when the name resolves to one address for the check and another afterwards, then the connection goes to the checked one', async () => {
    let calls = 0;
    const rebinding = async (): Promise<ResolvedAddress[]> => [{ address: (calls += 1) === 1 ? '127.0.0.2' : '127.0.0.3', family: 4 }];
    const resource = await fetchPublicResource(`http://localhost:${port}/`, { maxBytes: 100, timeoutMs: 10_000, production: false, lookup: rebinding });
    assert.equal(Buffer.from(resource.bytes).toString(), 'checked');
    assert.equal(calls, 1, 'the name is resolved once per fetch');
  });

  it('when any resolved address is not allowed, then nothing is fetched', async () => {
    const lookup = (...addresses: string[]) => async () => addresses.map((address) => ({ address, family: 4 as const }));
    const production = { maxBytes: 100, timeoutMs: 10_000, production: true };
    await assert.rejects(fetchPublicResource('https://partner.example/', { ...production, lookup: lookup('93.184.215.14', '127.0.0.1') }), refusal('address', /non-global/));
    await assert.rejects(fetchPublicResource('https://partner.example/', { ...production, lookup: lookup('169.254.169.254') }), refusal('address'));
    await assert.rejects(fetchPublicResource('https://partner.example/', { ...production, lookup: async () => [{ address: '::8.8.8.8', family: 6 }] }), refusal('address'));
    await assert.rejects(fetchPublicResource('https://partner.example/', { ...production, lookup: lookup() }), refusal('dns'));
    const outside = { ...production, production: false };
    await assert.rejects(fetchPublicResource(`http://localhost:${port}/`, { ...outside, lookup: lookup('127.0.0.2', '10.0.0.5') }), refusal('address', /not loopback/));
  });

  it('when the connection asks for one address or for all, then the pinned lookup answers only the checked ones', () => {
    const lookup = pinnedLookup([{ address: '93.184.215.14', family: 4 }, { address: '2606:2800:21f:cb07:6820:80da:af6b:8b2c', family: 6 }]);
    const answers: unknown[] = [];
    lookup('elsewhere.example', { all: true }, (...args: unknown[]) => answers.push(args));
    lookup('elsewhere.example', {}, (...args: unknown[]) => answers.push(args));
    assert.deepEqual(answers, [
      [null, [{ address: '93.184.215.14', family: 4 }, { address: '2606:2800:21f:cb07:6820:80da:af6b:8b2c', family: 6 }]],
      [null, '93.184.215.14', 4],
    ]);
  });
});

describe('TLS to a pinned address', () => {
  const pki = createTestPki();
  after(() => pki.remove());

  it('when the address is pinned, then SNI still names the host and a certificate the system does not trust is refused', async () => {
    const certificate = pki.issue({ subject: '/CN=partner.test', extensions: pki.serverExtensions('partner.test') });
    const serverNames: string[] = [];
    const context = createSecureContext({ cert: certificate.cert, key: certificate.key });
    const server = createTlsServer({
      SNICallback: (name, answer) => {
        serverNames.push(name);
        answer(null, context);
      },
    });
    const port = await listen(server as unknown as Server, '127.0.0.1');
    try {
      await assert.rejects(
        fetchPublicResource(`https://partner.test:${port}/`, { maxBytes: 100, timeoutMs: 10_000, production: false, lookup: async () => [{ address: '127.0.0.1', family: 4 }] }),
        refusal('tls', /^the server's certificate was refused \(DEPTH_ZERO_SELF_SIGNED_CERT\)$/),
      );
      assert.deepEqual(serverNames, ['partner.test']);
    } finally {
      server.close();
    }
  });
});
