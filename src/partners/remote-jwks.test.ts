import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { exportJWK, generateKeyPair } from 'jose';
import { AppError } from '../errors.js';
import { checkJwksUri, createRemoteJwks } from './remote-jwks.js';

describe('a partner jwksUri', () => {
  let server: Server;
  let base: string;
  let served: Record<string, { status?: number; body: string; headers?: Record<string, string> }>;
  const hits: Record<string, number> = {};

  before(async () => {
    served = {};
    server = createServer((request, response) => {
      const path = request.url ?? '/';
      hits[path] = (hits[path] ?? 0) + 1;
      const answer = served[path] ?? { status: 404, body: '' };
      response.writeHead(answer.status ?? 200, { 'content-type': 'application/json', ...answer.headers });
      response.end(answer.body);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  after(() => server.close());

  const jwk = async (kid: string) => ({ ...(await exportJWK((await generateKeyPair('ES256')).publicKey)), kid });

  it('is fetched once and kept for its max-age, at least five minutes', async () => {
    served['/a'] = { body: JSON.stringify({ keys: [await jwk('k1')] }), headers: { 'cache-control': 'max-age=10' } };
    let now = 0;
    const jwks = createRemoteJwks({ now: () => now });
    assert.deepEqual((await jwks.keys(`${base}/a`)).map((key) => key.kid), ['k1']);
    now = 299_000;
    await jwks.keys(`${base}/a`);
    assert.equal(hits['/a'], 1, 'max-age=10 is raised to the five-minute floor');
    now = 300_000;
    await jwks.keys(`${base}/a`);
    assert.equal(hits['/a'], 2);
  });

  it('is fetched again for an unknown kid at most once a minute, and concurrent lookups share the fetch', async () => {
    served['/b'] = { body: JSON.stringify({ keys: [await jwk('k1')] }), headers: { 'cache-control': 'max-age=3600' } };
    let now = 0;
    const jwks = createRemoteJwks({ now: () => now });
    await Promise.all([jwks.keys(`${base}/b`), jwks.keys(`${base}/b`), jwks.keys(`${base}/b`)]);
    assert.equal(hits['/b'], 1);
    served['/b'] = { body: JSON.stringify({ keys: [await jwk('k1'), await jwk('k2')] }), headers: { 'cache-control': 'max-age=3600' } };
    now = 30_000;
    assert.equal((await jwks.keys(`${base}/b`, 'k2')).length, 1, 'within the minute the old set answers');
    now = 60_000;
    assert.deepEqual((await jwks.keys(`${base}/b`, 'k2')).map((key) => key.kid), ['k1', 'k2']);
    await jwks.keys(`${base}/b`, 'k3');
    assert.equal(hits['/b'], 2, 'a kid nobody has does not make it fetch again within the minute');
  });

  it('refuses a set over 64 KiB, a redirect, or a set with a private key, and reports why', async () => {
    const outcomes: string[] = [];
    const jwks = createRemoteJwks({ now: () => 0, onFetch: (_uri, outcome) => outcomes.push(outcome.ok ? 'ok' : outcome.error) });
    served['/big'] = { body: JSON.stringify({ keys: [await jwk('k1')], padding: 'x'.repeat(70_000) }) };
    served['/redirect'] = { status: 302, body: '', headers: { location: `${base}/a` } };
    const { privateKey } = await generateKeyPair('ES256', { extractable: true });
    served['/private'] = { body: JSON.stringify({ keys: [await exportJWK(privateKey)] }) };
    for (const path of ['/big', '/redirect', '/private']) assert.deepEqual(await jwks.keys(`${base}${path}`), []);
    assert.match(outcomes[0]!, /larger than 65536 bytes/);
    assert.equal(outcomes.length, 3);
    assert.ok(outcomes.every((outcome) => outcome !== 'ok'));
  });

  it('keeps the last good set when a refetch fails', async () => {
    served['/c'] = { body: JSON.stringify({ keys: [await jwk('k1')] }), headers: { 'cache-control': 'max-age=300' } };
    let now = 0;
    const jwks = createRemoteJwks({ now: () => now });
    await jwks.keys(`${base}/c`);
    served['/c'] = { status: 500, body: '' };
    now = 600_000;
    assert.equal((await jwks.keys(`${base}/c`)).length, 1);
  });
});

describe('jwksUri rules', () => {
  const refused = (value: string, production: boolean) =>
    assert.throws(() => checkJwksUri(value, production), (error) => error instanceof AppError && error.status === 422);

  it('takes https anywhere, plain http only to loopback outside production', () => {
    checkJwksUri('https://partner.example/jwks.json', true);
    checkJwksUri('http://127.0.0.1:8081/jwks.json', false);
    checkJwksUri('http://[::1]/jwks.json', false);
    refused('http://127.0.0.1/jwks.json', true);
    refused('http://10.0.0.5/jwks.json', false);
    refused('http://partner.example/jwks.json', false);
    refused('ftp://partner.example/jwks.json', false);
    refused('https://user:pass@partner.example/jwks.json', true);
    refused('not a url', false);
  });

  it('refuses in production an https address literal that is not public (the gateway\'s own network)', () => {
    checkJwksUri('https://93.184.215.14/jwks.json', true);
    for (const uri of ['https://10.0.0.5/jwks.json', 'https://127.0.0.1/jwks.json', 'https://[::1]/jwks.json', 'https://169.254.169.254/latest', 'https://[::ffff:192.168.1.1]/x', 'https://[fd00::1]/x', 'https://[::7f00:1]/x', 'https://[64:ff9b::a00:5]/x']) {
      refused(uri, true);
    }
    checkJwksUri('https://10.0.0.5/jwks.json', false);
  });

  it('does not fetch, in production, a host that resolves to a non-public address', async () => {
    const outcomes: string[] = [];
    const remote = createRemoteJwks({
      now: () => Date.now(),
      production: true,
      lookup: async () => [{ address: '127.0.0.1', family: 4 }],
      onFetch: (_uri, outcome) => outcomes.push(outcome.ok ? 'ok' : outcome.error),
    });
    assert.deepEqual(await remote.keys('https://localhost/jwks.json'), []);
    assert.deepEqual(await remote.keys('https://127.0.0.1/jwks.json'), []);
    assert.deepEqual(await remote.keys('https://[::7f00:1]/jwks.json'), []);
    assert.equal(outcomes.length, 3);
    for (const outcome of outcomes) assert.match(outcome, /non-global/);
  });
});
