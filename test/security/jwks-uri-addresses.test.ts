import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { testBackends } from '../support/test-databases.js';
import { startTestGateway, TEST_ADMIN_TOKEN, type TestGateway } from '../support/test-gateway.js';

// Issue 26, finding 5: in production a partner's jwksUri must not lead the gateway into its own network, whatever
// spelling of an address it uses. Each URI below is refused at registration, over the admin API, before any fetch.

const NON_GLOBAL_LITERALS = [
  'https://[::7f00:1]/jwks.json', // IPv4-compatible 127.0.0.1: ipaddr.js calls it unicast
  'https://[::a9fe:a9fe]/latest/meta-data', // IPv4-compatible 169.254.169.254
  'https://[::ffff:169.254.169.254]/latest/meta-data',
  'https://[64:ff9b::a00:5]/jwks.json', // NAT64 of 10.0.0.5
  'https://[2002:7f00:1::1]/jwks.json', // 6to4 of 127.0.0.1
  'https://[2001:0:4136:e378:8000:63bf:80ff:fffe]/jwks.json', // Teredo of 127.0.0.1
  'https://[5f00::1]/jwks.json', // SRv6
  'https://100.64.0.1/jwks.json', // CGNAT
];

for (const backend of testBackends()) {
  describe(`a jwksUri's address in production on ${backend.name}`, () => {
    let t: TestGateway;
    let adminUrl: string;
    let login: string;
    before(async () => {
      t = await startTestGateway(backend, { env: { NODE_ENV: 'production', PUBLIC_URL: 'https://partners.example.com' }, seedBanks: false });
      adminUrl = await t.admin.listen({ host: '127.0.0.1', port: 0 });
      login = (await t.addPartner()).login;
    });
    after(() => t.close());

    const register = (jwksUri: string) =>
      fetch(`${adminUrl}/admin/v1/partners/${login}/jwks`, {
        method: 'PUT',
        headers: { authorization: `Bearer ${TEST_ADMIN_TOKEN}`, 'content-type': 'application/json' },
        body: JSON.stringify({ jwksUri }),
      });

    it('when the jwksUri is an IPv4-compatible, mapped, NAT64, 6to4, Teredo or other non-global address literal, then it is refused with 422', async () => {
      for (const jwksUri of NON_GLOBAL_LITERALS) {
        const response = await register(jwksUri);
        assert.equal(response.status, 422, jwksUri);
        const body = (await response.json()) as { errors?: { field: string; message: string }[] };
        assert.deepEqual(body.errors, [{ field: 'jwksUri', message: 'must not point at a private, loopback, link-local or other non-global address' }], jwksUri);
      }
    });
  });
}
