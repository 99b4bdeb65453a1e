import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { inspect } from 'node:util';
import { testBackends } from '../../../test/support/test-databases.js';
import { startTestGateway, type TestGateway } from '../../../test/support/test-gateway.js';
import { kindOfResponse, parseRetryAfter, PartnerApiError, type PartnerApiErrorKind } from './partner-api-error.js';
import { gatewayError, startFaultProxy } from '../test/fault-proxy.js';
import { freePort, testClient } from '../test/test-client.js';

// The gateway's texts, spelled out: the client maps 403s by these exact words, so they are the contract.
const UNAUTHORIZED = 'User failed authorization; access to the resource is restricted';
const BLOCKED = 'Access to the system is blocked; contact the account manager';
const IP_BLOCKED = 'Access from this IP address is blocked; contact the account manager';
const REWARD_UNAVAILABLE = 'This reward type is not available to this partner; contact the account manager';
const UNAVAILABLE = 'Service temporarily unavailable; repeat the operation later';

const isError = (kind: PartnerApiErrorKind, status: number, description?: string | RegExp) => (error: unknown) => {
  assert.ok(error instanceof PartnerApiError, `expected a PartnerApiError, got ${String(error)}`);
  assert.equal(error.kind, kind);
  assert.equal(error.status, status);
  if (typeof description === 'string') assert.equal(error.description, description);
  if (description instanceof RegExp) assert.match(error.description, description);
  return true;
};

for (const backend of testBackends()) {
  describe(`error kinds from a listening gateway on ${backend.name}`, () => {
    let t: TestGateway;
    let url: string;
    before(async () => {
      // cards: a partner with another reward type than sbp (REWARD_TYPES' catalogue must hold it).
      t = await startTestGateway(backend, { env: { REWARD_TYPES: 'sbp,cards' } });
      url = await t.app.listen({ host: '127.0.0.1', port: 0 });
    });
    after(() => t.close());

    it('unauthorized: a wrong password, not retried, and the password is nowhere in the error', async () => {
      const partner = await t.addPartner();
      const wrong = { login: partner.login, password: 'secret-but-wrong-password' };
      const { client, logins } = testClient(url, wrong);
      const error = await client.login().then(() => assert.fail('logged in with a wrong password'), (failure: unknown) => failure);
      isError('unauthorized', 401, UNAUTHORIZED)(error);
      assert.equal(logins(), 1);
      assert.ok(!inspect(error).includes(wrong.password));
    });

    it('blocked: a partner whose access is suspended', async () => {
      const partner = await t.addPartner();
      await t.gateway.admin.partners.update(partner.login, { status: 'blocked' });
      await assert.rejects(testClient(url, partner).client.banks(), isError('blocked', 403, BLOCKED));
    });

    it('ip_blocked: a partner allowed only from 10.0.0.0/8, calling from loopback', async () => {
      const partner = await t.addPartner({ ipAllowlist: ['10.0.0.0/8'] });
      await assert.rejects(testClient(url, partner).client.login(), isError('ip_blocked', 403, IP_BLOCKED));
    });

    it('reward_unavailable: a partner without sbp logs in but may not list the banks', async () => {
      const partner = await t.addPartner({ rewardTypes: ['cards'] });
      const { client } = testClient(url, partner);
      await client.login();
      await assert.rejects(client.banks(), isError('reward_unavailable', 403, REWARD_UNAVAILABLE));
      await assert.rejects(client.banksWithPassword(), isError('reward_unavailable', 403, REWARD_UNAVAILABLE));
    });

    it('invalid_request: an unknown provider segment is a 404, never retried', async () => {
      const partner = await t.addPartner();
      const { client, calls } = testClient(url, partner, { provider: 'nope' });
      await assert.rejects(client.banks(), isError('invalid_request', 404, /does not exist/));
      assert.equal(calls.filter((call) => call.path === '/partner/nope/sbp/banks/').length, 1);
    });

    it('network: nothing listening, tried 1 + retries times with backoff, status 0', async () => {
      const { client, logins, delays } = testClient(`http://127.0.0.1:${await freePort()}`, { login: 'acme', password: 'a long password' });
      await assert.rejects(client.banks(), isError('network', 0, /could not be reached \(ECONNREFUSED\)/));
      assert.equal(logins(), 3);
      assert.deepEqual(delays, [100, 200], 'full jitter at random 0.5 of 200 and 400 ms');
    });

    it('throttled: a 429 that persists, with the Retry-After it carried', async () => {
      const proxy = await startFaultProxy(url, () => gatewayError(429, 'Too many requests; repeat the operation later', { 'retry-after': '7' }));
      try {
        const { client, delays } = testClient(proxy.url, { login: 'acme', password: 'a long password' });
        await assert.rejects(client.login(), (error: PartnerApiError) => isError('throttled', 429)(error) && error.retryAfterSeconds === 7);
        assert.deepEqual(delays, [7000, 7000]);
      } finally {
        await proxy.close();
      }
    });
  });

  describe(`throttled: the gateway's own lockout after repeated wrong passwords, on ${backend.name}`, () => {
    it('gives up at once with the lockout in retryAfterSeconds, since it is longer than the client waits', async () => {
      const t = await startTestGateway(backend, { env: { THROTTLE_MAX_FAILURES: '2', THROTTLE_LOCKOUT: '60' } });
      try {
        const url = await t.app.listen({ host: '127.0.0.1', port: 0 });
        const partner = await t.addPartner();
        const { client, logins, delays } = testClient(url, { login: partner.login, password: 'a wrong password here' });
        await assert.rejects(client.login(), { kind: 'unauthorized' });
        await assert.rejects(client.login(), { kind: 'unauthorized' });
        await assert.rejects(client.login(), (error: PartnerApiError) => isError('throttled', 429)(error) && error.retryAfterSeconds === 60);
        assert.equal(logins(), 3);
        assert.deepEqual(delays, []);
      } finally {
        await t.close();
      }
    });
  });

  describe(`unavailable: a gateway whose database is down, on ${backend.name}`, () => {
    it('answers 500, retried 1 + retries times, then unavailable with the gateway text', async () => {
      const t = await startTestGateway(backend);
      try {
        const url = await t.app.listen({ host: '127.0.0.1', port: 0 });
        const partner = await t.addPartner();
        await t.handle.close();
        const { client, logins } = testClient(url, partner);
        await assert.rejects(client.banks(), isError('unavailable', 500, UNAVAILABLE));
        assert.equal(logins(), 3);
      } finally {
        await Promise.all([t.app.close(), t.admin.close()]);
      }
    });
  });
}

describe('PartnerApiError mapping', () => {
  it('maps statuses, and 403 by its exact text', () => {
    assert.equal(kindOfResponse(401, UNAUTHORIZED), 'unauthorized');
    assert.equal(kindOfResponse(403, BLOCKED), 'blocked');
    assert.equal(kindOfResponse(403, IP_BLOCKED), 'ip_blocked');
    assert.equal(kindOfResponse(403, REWARD_UNAVAILABLE), 'reward_unavailable');
    assert.equal(kindOfResponse(403, 'Some new refusal'), 'blocked');
    for (const status of [400, 404, 405, 413, 415, 422, 431]) assert.equal(kindOfResponse(status, 'x'), 'invalid_request');
    assert.equal(kindOfResponse(429, 'x'), 'throttled');
    for (const status of [500, 502, 503, 504]) assert.equal(kindOfResponse(status, 'x'), 'unavailable');
  });

  it('is retryable for 429, 500, 502, 503, 504 and network failures only', () => {
    const error = (kind: PartnerApiErrorKind, status: number) => new PartnerApiError({ kind, status, description: 'x', operation: 'banks' });
    assert.deepEqual(
      [error('throttled', 429), error('unavailable', 503), error('network', 0), error('unavailable', 501), error('unavailable', 200), error('invalid_request', 422)].map((e) => e.retryable),
      [true, true, true, false, false, false],
    );
  });

  it('reads Retry-After as seconds or as an HTTP-date, and ignores anything else', () => {
    const now = Date.UTC(2030, 0, 1, 12, 0, 0);
    assert.equal(parseRetryAfter('120', now), 120);
    assert.equal(parseRetryAfter('Tue, 01 Jan 2030 12:00:45 GMT', now), 45);
    assert.equal(parseRetryAfter('Tue, 01 Jan 2030 11:00:00 GMT', now), 0);
    assert.equal(parseRetryAfter('soon', now), undefined);
    assert.equal(parseRetryAfter('-5', now), undefined);
    assert.equal(parseRetryAfter(null, now), undefined);
  });
});
