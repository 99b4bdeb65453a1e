import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { testBackends } from '../../../test/support/test-databases.js';
import { startTestGateway, type TestGateway } from '../../../test/support/test-gateway.js';
import { PartnerApiError } from './partner-api-error.js';
import { gatewayError, startFaultProxy, type Fault, type FaultProxy, type SeenRequest } from '../test/fault-proxy.js';
import { testClient } from '../test/test-client.js';
import { retryDelayMs } from './with-retries.js';

const LOGIN = '/api/v1/login/';
const BANKS = '/partner/provider/sbp/banks/';
const UNAVAILABLE = 'Service temporarily unavailable; repeat the operation later';

describe('retries, timeouts and aborts through a fault-injecting proxy in front of a real gateway', () => {
  let t: TestGateway;
  let gatewayUrl: string;
  let partner: { login: string; password: string };
  const proxies: FaultProxy[] = [];
  before(async () => {
    t = await startTestGateway(testBackends()[0]!);
    gatewayUrl = await t.app.listen({ host: '127.0.0.1', port: 0 });
    partner = await t.addPartner();
  });
  after(async () => {
    await Promise.all(proxies.map((proxy) => proxy.close()));
    await t.close();
  });

  /** A proxy that applies `fault` to the first `times` requests to `path` and forwards everything else. */
  async function proxyFailing(path: string, times: number, fault: Fault): Promise<FaultProxy> {
    let seen = 0;
    const proxy = await startFaultProxy(gatewayUrl, (request: SeenRequest) => (request.path === path && seen++ < times ? fault : undefined));
    proxies.push(proxy);
    return proxy;
  }
  const count = (proxy: FaultProxy, path: string) => proxy.requests.filter((request) => request.path === path).length;

  it('retries a 500 with backoff and then succeeds', async () => {
    const proxy = await proxyFailing(LOGIN, 2, gatewayError(500, UNAVAILABLE));
    const { client, delays } = testClient(proxy.url, partner);
    assert.ok((await client.login()).accessToken);
    assert.equal(count(proxy, LOGIN), 3);
    assert.deepEqual(delays, [100, 200]);
  });

  it('retries 502, 503 and 504 and a dropped connection alike', async () => {
    const proxy = await proxyFailing(BANKS, 2, { status: 502, body: '<html>Bad gateway</html>', headers: { 'content-type': 'text/html' } });
    const { client } = testClient(proxy.url, partner);
    assert.ok((await client.banks()).length > 0);
    assert.equal(count(proxy, BANKS), 3);
    for (const status of [503, 504]) {
      const other = await proxyFailing(BANKS, 1, gatewayError(status, UNAVAILABLE));
      assert.ok((await testClient(other.url, partner).client.banks()).length > 0);
    }
  });

  it('waits as long as Retry-After says on a 429 and then succeeds', async () => {
    const proxy = await proxyFailing(BANKS, 1, gatewayError(429, 'Too many requests', { 'retry-after': '3' }));
    const { client, delays } = testClient(proxy.url, partner);
    assert.ok((await client.banks()).length > 0);
    assert.deepEqual(delays, [3000]);
  });

  it('reads an HTTP-date Retry-After by the client clock, and waits up to 30 s', async () => {
    const clock = Date.UTC(2030, 0, 1);
    const proxy = await proxyFailing(LOGIN, 2, gatewayError(503, UNAVAILABLE, { 'retry-after': new Date(clock + 30_000).toUTCString() }));
    const { client, delays } = testClient(proxy.url, partner, { internals: { now: () => clock } });
    await client.login();
    assert.deepEqual(delays, [30_000, 30_000]);
  });

  it('gives up at once, with retryAfterSeconds, when the gateway asks for a pause longer than 30 s', async () => {
    const proxy = await proxyFailing(LOGIN, 5, gatewayError(429, 'Too many failed attempts', { 'retry-after': '600' }));
    const { client, delays } = testClient(proxy.url, partner);
    await assert.rejects(client.login(), { kind: 'throttled', status: 429, retryAfterSeconds: 600 });
    assert.equal(count(proxy, LOGIN), 1);
    assert.deepEqual(delays, []);
  });

  it('does not retry a 4xx other than 429', async () => {
    const proxy = await proxyFailing(BANKS, 5, gatewayError(422, 'A required parameter partnerName was omitted; repeat the request with correct data'));
    const { client, delays } = testClient(proxy.url, partner);
    await assert.rejects(client.banks(), { kind: 'invalid_request', status: 422 });
    assert.equal(count(proxy, BANKS), 1);
    assert.deepEqual(delays, []);
  });

  it('makes no retry when retries is 0', async () => {
    const proxy = await proxyFailing(LOGIN, 1, gatewayError(500, UNAVAILABLE));
    await assert.rejects(testClient(proxy.url, partner, { retries: 0 }).client.login(), { kind: 'unavailable' });
    assert.equal(count(proxy, LOGIN), 1);
  });

  it('gives each attempt its own timeout: a request that hangs is abandoned and the retry succeeds', async () => {
    const proxy = await proxyFailing(BANKS, 1, 'hang');
    const { client } = testClient(proxy.url, partner);
    await client.login();
    assert.ok((await client.banks({ timeoutMs: 1_000 })).length > 0);
    assert.equal(count(proxy, BANKS), 2);
  });

  it('reports a network error naming the timeout when every attempt hangs', async () => {
    const proxy = await proxyFailing(LOGIN, 10, 'hang');
    // Long enough for each attempt to reach the proxy on a loaded machine: the proxy never answers anyway.
    const { client } = testClient(proxy.url, partner, { timeoutMs: 1_000, retries: 1 });
    await assert.rejects(client.login(), { kind: 'network', status: 0, description: 'No answer within 1000 ms' });
    assert.equal(count(proxy, LOGIN), 2);
  });

  it("rethrows the caller's abort as is, and sends nothing more", async () => {
    const proxy = await proxyFailing(BANKS, 10, 'hang');
    const { client } = testClient(proxy.url, partner);
    await client.login();
    const controller = new AbortController();
    const call = client.banks({ signal: controller.signal });
    await proxy.received(2);
    controller.abort();
    await assert.rejects(call, (error: Error) => error.name === 'AbortError' && !(error instanceof PartnerApiError));
    const reason = new Error('shutting down');
    const again = new AbortController();
    const second = client.banks({ signal: again.signal });
    await proxy.received(3);
    again.abort(reason);
    await assert.rejects(second, (error) => error === reason);
    assert.equal(count(proxy, BANKS), 2);
  });

  it('stops waiting between retries when the caller aborts, and sends nothing after an abort', async () => {
    const proxy = await proxyFailing(LOGIN, 10, gatewayError(503, UNAVAILABLE));
    const controller = new AbortController();
    const { client } = testClient(proxy.url, partner, {
      internals: {
        sleep: async (_ms, signal) => {
          controller.abort();
          signal?.throwIfAborted();
        },
      },
    });
    await assert.rejects(client.login({ signal: controller.signal }), { name: 'AbortError' });
    await assert.rejects(client.banks({ signal: controller.signal }), { name: 'AbortError' });
    assert.equal(count(proxy, LOGIN), 1);
  });
});

describe('backoff', () => {
  it('grows exponentially from 200 ms with full jitter and never exceeds 5 s', () => {
    const error = new PartnerApiError({ kind: 'unavailable', status: 503, description: 'x', operation: 'banks' });
    const highest = (failures: number) => retryDelayMs(error, failures, () => 0.999_999);
    assert.deepEqual([0, 1, 2, 3, 4, 5, 10].map(highest), [199, 399, 799, 1599, 3199, 4999, 4999]);
    assert.equal(retryDelayMs(error, 3, () => 0), 0, 'full jitter reaches down to no wait at all');
  });
});
