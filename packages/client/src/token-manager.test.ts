import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { inspect } from 'node:util';
import { testBackends } from '../../../test/support/test-databases.js';
import { startTestGateway, type TestGateway } from '../../../test/support/test-gateway.js';
import { PartnerApiError } from './partner-api-error.js';
import { gatewayError, startFaultProxy, type Fault, type FaultProxy } from '../test/fault-proxy.js';
import { testClient } from '../test/test-client.js';

const BANKS = '/partner/provider/sbp/banks/';
const REFRESH = '/api/v1/token/refresh/';
const UNAVAILABLE = 'Service temporarily unavailable; repeat the operation later';

for (const backend of testBackends()) {
  describe(`access token renewal against a gateway with a 60 s token TTL and a 120 s refresh TTL on ${backend.name}`, () => {
    let t: TestGateway;
    let url: string;
    let partner: { login: string; password: string };
    const proxies: FaultProxy[] = [];
    // One clock for the gateway and, where a test says so, the client: moving it is how time passes.
    let clock = Date.now();
    const now = () => clock;
    before(async () => {
      t = await startTestGateway(backend, { env: { TOKEN_TTL: '60', REFRESH_TTL: '120' }, now });
      url = await t.app.listen({ host: '127.0.0.1', port: 0 });
      partner = await t.addPartner();
    });
    after(async () => {
      await Promise.all(proxies.map((proxy) => proxy.close()));
      await t.close();
    });

    const banksCalls = (calls: Array<{ path: string }>) => calls.filter((call) => call.path === BANKS).length;
    const rawRefresh = (refreshToken: string) =>
      fetch(`${url}${REFRESH}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ refresh_token: refreshToken }) });
    /** A proxy in front of the gateway that applies `fault` to the first `times` refresh requests. */
    async function proxyFailingRefresh(times: number, fault: Fault): Promise<FaultProxy> {
      let seen = 0;
      const proxy = await startFaultProxy(url, (request) => (request.path === REFRESH && seen++ < times ? fault : undefined));
      proxies.push(proxy);
      return proxy;
    }

    it('renews with one refresh and no login once less than 30 s of its 60 s remain, and the new refresh token replaces the old', async () => {
      const { client, calls, logins, refreshes, sentRefreshTokens, issuedRefreshTokens } = testClient(url, partner, { internals: { now } });
      await client.banks();
      clock += 20_000;
      await client.banks();
      assert.equal(refreshes(), 0, '40 s left: the token is kept');
      clock += 11_000;
      await client.banks();
      assert.deepEqual({ logins: logins(), refreshes: refreshes() }, { logins: 1, refreshes: 1 }, '29 s left: refreshed');
      clock += 31_000;
      await client.banks();
      assert.deepEqual({ logins: logins(), refreshes: refreshes() }, { logins: 1, refreshes: 2 });
      assert.deepEqual(sentRefreshTokens, issuedRefreshTokens.slice(0, 2), 'each refresh sends the token the last answer gave');
      assert.equal(banksCalls(calls), 4, 'no call was refused and repeated');
    });

    it('makes exactly one renewal request, a refresh, for 50 concurrent calls on an expired access token', async () => {
      const { client, logins, refreshes } = testClient(url, partner, { internals: { now } });
      await client.banks();
      clock += 61_000;
      const results = await Promise.all(Array.from({ length: 50 }, () => client.banks()));
      assert.ok(results.every((banks) => banks.length > 0));
      assert.deepEqual({ logins: logins(), refreshes: refreshes() }, { logins: 1, refreshes: 1 });
    });

    it('renews with the refresh token when the gateway refuses an access token the client thinks valid, then repeats the call once', async () => {
      // The client's clock stands still while the gateway's moves past the token's expiry: a skewed clock.
      const frozen = clock;
      const { client, calls, logins, refreshes } = testClient(url, partner, { internals: { now: () => frozen } });
      await client.banks();
      clock += 90_000;
      assert.ok((await client.banks()).length > 0);
      assert.deepEqual({ logins: logins(), refreshes: refreshes() }, { logins: 1, refreshes: 1 });
      assert.equal(banksCalls(calls), 3, 'the refused call was repeated once');
    });

    it('shares one refresh among 50 concurrent calls refused for the same token', async () => {
      const frozen = clock;
      const { client, logins, refreshes } = testClient(url, partner, { internals: { now: () => frozen } });
      await client.banks();
      clock += 90_000;
      await Promise.all(Array.from({ length: 50 }, () => client.banks()));
      assert.deepEqual({ logins: logins(), refreshes: refreshes() }, { logins: 1, refreshes: 1 });
    });

    it('falls back to a login in the same renewal when the gateway has revoked the refresh token (partner blocked, then unblocked)', async () => {
      const other = await t.addPartner();
      const { client, calls, logins, refreshes } = testClient(url, other, { internals: { now } });
      await client.banks();
      await t.gateway.admin.partners.update(other.login, { status: 'blocked' });
      await t.gateway.admin.partners.update(other.login, { status: 'active' });
      clock += 31_000;
      assert.ok((await client.banks()).length > 0);
      assert.deepEqual({ logins: logins(), refreshes: refreshes() }, { logins: 2, refreshes: 1 });
      assert.equal(banksCalls(calls), 2);
    });

    it('falls back to a login when the gateway revoked the login for refresh token reuse', async () => {
      const { client, logins, refreshes, sentRefreshTokens } = testClient(url, partner, { internals: { now } });
      await client.banks();
      clock += 31_000;
      await client.banks();
      // Someone presents the refresh token the client has already spent: the gateway revokes the whole login.
      assert.equal((await rawRefresh(sentRefreshTokens[0]!)).status, 401);
      clock += 31_000;
      assert.ok((await client.banks()).length > 0);
      assert.deepEqual({ logins: logins(), refreshes: refreshes() }, { logins: 2, refreshes: 2 });
      assert.equal(new Set(sentRefreshTokens).size, 2);
    });

    it('does not send a refresh token past its refresh_expires_in, and logs in instead', async () => {
      const { client, logins, refreshes } = testClient(url, partner, { internals: { now } });
      await client.banks();
      clock += 120_000;
      assert.ok((await client.banks()).length > 0);
      assert.deepEqual({ logins: logins(), refreshes: refreshes() }, { logins: 2, refreshes: 0 });
    });

    it('logs in instead of repeating a refresh whose answer was lost after the gateway spent the token, and never sends a refresh token twice', async () => {
      const proxy = await proxyFailingRefresh(1, 'lose-answer');
      const { client, logins, refreshes, sentRefreshTokens, issuedRefreshTokens } = testClient(proxy.url, partner, { internals: { now } });
      await client.banks();
      clock += 31_000;
      assert.ok((await client.banks()).length > 0);
      assert.deepEqual({ logins: logins(), refreshes: refreshes() }, { logins: 2, refreshes: 1 });
      assert.equal((await rawRefresh(sentRefreshTokens[0]!)).status, 401, 'the gateway had spent it');
      clock += 31_000;
      assert.ok((await client.banks()).length > 0);
      assert.deepEqual({ logins: logins(), refreshes: refreshes() }, { logins: 2, refreshes: 2 }, 'the new login refreshes normally');
      assert.equal(new Set(sentRefreshTokens).size, sentRefreshTokens.length);
      assert.equal(sentRefreshTokens[1], issuedRefreshTokens.at(-2), "the second refresh sent the login's token");
    });

    it('logs in instead of repeating a refresh that timed out or got a 502 or 504', async () => {
      for (const fault of ['hang', { status: 502, body: 'Bad gateway' }, gatewayError(504, 'Gateway timeout')] as Fault[]) {
        const proxy = await proxyFailingRefresh(1, fault);
        // The hanging refresh needs a timeout; one generous enough that a login on a busy machine never hits it.
        const timeoutMs = fault === 'hang' ? 2_000 : 10_000;
        const { client, logins, refreshes } = testClient(proxy.url, partner, { internals: { now }, timeoutMs });
        await client.banks();
        clock += 31_000;
        assert.ok((await client.banks()).length > 0);
        assert.deepEqual({ logins: logins(), refreshes: refreshes() }, { logins: 2, refreshes: 1 }, JSON.stringify(fault));
      }
    });

    it('retries a refresh answered 500 like any other request, without logging in', async () => {
      const proxy = await proxyFailingRefresh(1, gatewayError(500, UNAVAILABLE));
      const { client, logins, refreshes, delays } = testClient(proxy.url, partner, { internals: { now } });
      await client.banks();
      clock += 31_000;
      assert.ok((await client.banks()).length > 0);
      assert.deepEqual({ logins: logins(), refreshes: refreshes() }, { logins: 1, refreshes: 2 });
      assert.deepEqual(delays, [100]);
    });

    it('keeps the refresh token after a refresh that failed unspent, and uses it on the next renewal', async () => {
      const proxy = await proxyFailingRefresh(1, gatewayError(503, UNAVAILABLE));
      const { client, logins, refreshes, sentRefreshTokens } = testClient(proxy.url, partner, { internals: { now }, retries: 0 });
      await client.banks();
      clock += 31_000;
      await assert.rejects(client.banks(), (error: PartnerApiError) => error.kind === 'unavailable' && error.operation === 'refresh');
      assert.ok((await client.banks()).length > 0);
      assert.deepEqual({ logins: logins(), refreshes: refreshes() }, { logins: 1, refreshes: 2 });
      assert.equal(sentRefreshTokens[0], sentRefreshTokens[1]);
    });

    it('never shows the refresh token: not in what login() returns, the client, or a failed refresh', async () => {
      const proxy = await proxyFailingRefresh(1, gatewayError(503, UNAVAILABLE));
      const { client, issuedRefreshTokens } = testClient(proxy.url, partner, { internals: { now }, retries: 0 });
      const token = await client.login();
      const [refreshToken] = issuedRefreshTokens;
      assert.ok(refreshToken);
      assert.deepEqual(Object.keys(token).sort(), ['accessToken', 'expiresAt', 'expiresIn', 'tokenType']);
      clock += 31_000;
      const error = await client.banks().then(() => assert.fail('the refresh should have failed'), (failure: unknown) => failure);
      for (const shown of [inspect(token), inspect(client, { showHidden: true, depth: 10 }), JSON.stringify(client), inspect(error), String(error)]) {
        assert.ok(!shown.includes(refreshToken));
      }
    });

    it('gives up with unauthorized when the refresh and then the new login are refused, without looping', async () => {
      const other = await t.addPartner();
      const frozen = clock;
      const { client, calls, logins, refreshes } = testClient(url, other, { internals: { now: () => frozen } });
      await client.banks();
      await t.gateway.admin.partners.update(other.login, { password: 'a password changed by the admin' });
      clock += 90_000;
      await assert.rejects(client.banks(), (error: PartnerApiError) => error.kind === 'unauthorized' && error.operation === 'login');
      assert.deepEqual({ logins: logins(), refreshes: refreshes() }, { logins: 2, refreshes: 1 });
      assert.equal(banksCalls(calls), 2);
    });

    it('lets a caller stop waiting for a shared login without cancelling it for the others', async () => {
      const { client, logins } = testClient(url, partner, { internals: { now } });
      const impatient = new AbortController();
      const first = client.banks({ signal: impatient.signal });
      const second = client.banks();
      impatient.abort();
      await assert.rejects(first, { name: 'AbortError' });
      assert.ok((await second).length > 0);
      assert.equal(logins(), 1);
    });

    it('tries the login again on the next call after a failed renewal', async () => {
      const { client, logins } = testClient(url, { login: partner.login, password: 'not the password at all' }, { internals: { now } });
      await assert.rejects(client.banks(), { kind: 'unauthorized' });
      await assert.rejects(client.banks(), { kind: 'unauthorized' });
      assert.equal(logins(), 2, 'a failed login is not cached');
    });

    it('logout that the gateway fails keeps the tokens, so that calling it again ends the session', async () => {
      let failing = true;
      const proxy = await startFaultProxy(url, (request) => (request.path === '/api/v1/logout/' && failing ? gatewayError(503, UNAVAILABLE) : undefined));
      proxies.push(proxy);
      const { client, logins, logouts } = testClient(proxy.url, partner, { internals: { now }, retries: 0 });
      const { accessToken } = await client.login();
      await assert.rejects(client.logout(), (error: PartnerApiError) => error.kind === 'unavailable' && error.operation === 'logout');
      failing = false;
      await client.logout();
      assert.equal(logouts(), 2);
      const banks = await fetch(`${url}${BANKS}`, { method: 'POST', headers: { authorization: `Bearer ${accessToken}` } });
      assert.equal(banks.status, 401);
      assert.equal(logins(), 1);
    });

    it('logout with an expired access token first renews it with the refresh token, so that the refresh token is revoked too', async () => {
      const { client, logins, refreshes, logouts, issuedRefreshTokens } = testClient(url, partner, { internals: { now } });
      await client.banks();
      clock += 61_000;
      await client.logout();
      assert.deepEqual({ logins: logins(), refreshes: refreshes(), logouts: logouts() }, { logins: 1, refreshes: 1, logouts: 1 });
      assert.equal((await rawRefresh(issuedRefreshTokens.at(-1)!)).status, 401);
    });
  });
}
