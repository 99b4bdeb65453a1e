import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { testBackends } from '../../../src/testing/test-databases.js';
import { startTestGateway, type TestGateway } from '../../../src/testing/test-gateway.js';
import { PartnerApiError } from './partner-api-error.js';
import { testClient } from './testing/test-client.js';

const BANKS = '/partner/provider/sbp/banks/';

for (const backend of testBackends()) {
  describe(`access token renewal against a gateway with a 60 s token TTL on ${backend.name}`, () => {
    let t: TestGateway;
    let url: string;
    let partner: { login: string; password: string };
    // One clock for the gateway and, where a test says so, the client: moving it is how time passes.
    let clock = Date.now();
    const now = () => clock;
    before(async () => {
      t = await startTestGateway(backend, { env: { TOKEN_TTL: '60' }, now });
      url = await t.app.listen({ host: '127.0.0.1', port: 0 });
      partner = await t.addPartner();
    });
    after(() => t.close());

    it('renews the token once less than 30 s of its 60 s remain, before the gateway would refuse it', async () => {
      const { client, calls, logins } = testClient(url, partner, { internals: { now } });
      await client.banks();
      clock += 20_000;
      await client.banks();
      assert.equal(logins(), 1, '40 s left: the token is kept');
      clock += 11_000;
      await client.banks();
      assert.equal(logins(), 2, '29 s left: renewed');
      assert.equal(calls.filter((call) => call.path === BANKS).length, 3, 'no call was refused and repeated');
    });

    it('makes exactly one login for 50 concurrent calls on an expired token', async () => {
      const { client, logins } = testClient(url, partner, { internals: { now } });
      await client.banks();
      clock += 120_000;
      const results = await Promise.all(Array.from({ length: 50 }, () => client.banks()));
      assert.ok(results.every((banks) => banks.length > 0));
      assert.equal(logins(), 2);
    });

    it('logs in once more when the gateway refuses a token the client thinks valid, then succeeds', async () => {
      // The client's clock stands still while the gateway's moves past the token's expiry: a skewed clock.
      const frozen = clock;
      const { client, calls, logins } = testClient(url, partner, { internals: { now: () => frozen } });
      await client.banks();
      clock += 120_000;
      assert.ok((await client.banks()).length > 0);
      assert.equal(logins(), 2);
      assert.equal(calls.filter((call) => call.path === BANKS).length, 3, 'the refused call was repeated once');
    });

    it('shares one new login among 50 concurrent calls refused for the same token', async () => {
      const frozen = clock;
      const { client, logins } = testClient(url, partner, { internals: { now: () => frozen } });
      await client.banks();
      clock += 120_000;
      await Promise.all(Array.from({ length: 50 }, () => client.banks()));
      assert.equal(logins(), 2);
    });

    it('gives up with unauthorized when the new login is refused too, without looping', async () => {
      const other = await t.addPartner();
      const frozen = clock;
      const { client, calls, logins } = testClient(url, other, { internals: { now: () => frozen } });
      await client.banks();
      await t.gateway.partnerAdmin.update(other.login, { password: 'a password changed by the admin' });
      clock += 120_000;
      await assert.rejects(client.banks(), (error: PartnerApiError) => error.kind === 'unauthorized' && error.operation === 'login');
      assert.equal(logins(), 2);
      assert.equal(calls.filter((call) => call.path === BANKS).length, 2);
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
  });
}
