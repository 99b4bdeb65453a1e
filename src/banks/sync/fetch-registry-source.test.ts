import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { PublicFetchError } from '../../net/public-fetch-error.js';
import { registryFetcher } from './fetch-registry-source.js';

describe('registryFetcher', () => {
  let base: string;
  let hits = 0;
  const server = createServer((request, response) => {
    hits++;
    if (request.url === '/moved') {
      response.writeHead(302, { location: '/ed807.xml' }).end();
      return;
    }
    response.writeHead(200, { 'content-type': 'application/xml' }).end('<ED807/>');
  });
  before(async () => {
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  after(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it('when the source is on loopback outside production, then it is downloaded, following a redirect', async () => {
    const bytes = await registryFetcher({ production: false, maxBytes: 4 * 1024 * 1024 })(`${base}/moved`);
    assert.equal(Buffer.from(bytes).toString(), '<ED807/>');
  });

  it('when a production gateway is given a name that resolves to a private address, then nothing is fetched (no SSRF into its own network)', async () => {
    const before = hits;
    const fetchSource = registryFetcher({ production: true, maxBytes: 4 * 1024 * 1024, lookup: async () => [{ address: '127.0.0.1', family: 4 }] });
    await assert.rejects(fetchSource('https://registry.example/ed807.zip'), (error: unknown) => error instanceof PublicFetchError && error.reason === 'address');
    await assert.rejects(registryFetcher({ production: true, maxBytes: 4 * 1024 * 1024 })(`${base}/ed807.xml`), (error: unknown) => error instanceof PublicFetchError && error.reason === 'scheme');
    assert.equal(hits, before);
  });
});
