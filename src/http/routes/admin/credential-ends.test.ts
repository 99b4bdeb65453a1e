import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { runGroup } from '@partner-gateway/client/cli/command-group';
import type { CredentialEndsResponse } from '@partner-gateway/contract/admin-credential-ends';
import { ADMIN_CREDENTIAL_ENDS_PATH, SELF_KEYS_PATH, SELF_PASSWORD_PATH } from '@partner-gateway/contract/paths';
import { cliHarness } from '../../../../test/support/cli-harness.js';
import { startListeningGateway } from '../../../../test/support/key-partner.js';
import { testKey } from '../../../../test/support/oauth-client.js';
import { selfServiceCaller, selfServicePartner } from '../../../../test/support/self-service-caller.js';
import { testBackends } from '../../../../test/support/test-databases.js';
import { TEST_ADMIN_TOKEN, type TestGateway, type TestOperator } from '../../../../test/support/test-gateway.js';
import { createAdminClient } from '../../../cli/admin-client.js';
import { partnerCommands } from '../../../cli/commands/partner-command.js';

const HOUR = 3600_000;

for (const backend of testBackends()) {
  describe(`GET /admin/v1/credential-ends on ${backend.name}`, () => {
    let t: TestGateway & { url: string };
    let clock = Date.now();
    let caller: ReturnType<typeof selfServiceCaller>;
    let viewer: TestOperator;
    before(async () => {
      t = await startListeningGateway(backend, { now: () => clock });
      caller = selfServiceCaller(t.url, () => clock);
      viewer = await t.addOperator('viewer');
    });
    after(() => t.close());

    const ends = async (query = '') => {
      const response = await t.admin.inject({ method: 'GET', url: `${ADMIN_CREDENTIAL_ENDS_PATH}${query}`, headers: viewer.headers });
      return { status: response.statusCode, body: response.json() as CredentialEndsResponse };
    };

    it("when partners rotate a key and a password, then a viewer sees both ends soonest first with their logins, never a partner with none, and neither once they have passed", async () => {
      const keyed = await selfServicePartner(t, caller);
      const passworded = await selfServicePartner(t, caller);
      const untouched = await selfServicePartner(t, caller);
      const rotatedKey = await caller.call(keyed.token, 'POST', SELF_KEYS_PATH, { key: (await testKey()).publicJwk, overlapSeconds: 2 * 3600 }, keyed.dpopKey);
      assert.equal(rotatedKey.status, 200);
      const rotatedPassword = await caller.call(passworded.token, 'POST', SELF_PASSWORD_PATH, { overlapSeconds: 3600 }, passworded.dpopKey);
      assert.equal(rotatedPassword.status, 200);

      const { status, body } = await ends();
      assert.equal(status, 200);
      const ours = body.ends.filter((end) => [keyed.login, passworded.login, untouched.login].includes(end.partner));
      assert.deepEqual(ours, [
        { partner: passworded.login, credential: 'password', id: 'previous', endsAt: new Date(clock + HOUR).toISOString() },
        { partner: keyed.login, credential: 'key', id: keyed.key.kid, endsAt: new Date(clock + 2 * HOUR).toISOString() },
      ]);
      const first = await ends('?limit=1');
      assert.equal(first.body.ends.length, 1);
      assert.equal(first.body.more, true);

      // The CLI prints the same list.
      const harness = cliHarness({ ADMIN_URL: await t.admin.listen({ host: '127.0.0.1', port: 0 }), ADMIN_TOKEN: TEST_ADMIN_TOKEN });
      await runGroup(partnerCommands, ['credential-ends', '--days', '1', '--wide'], harness.io, createAdminClient(harness.io));
      assert.match(harness.stdout(), new RegExp(`${passworded.login} +password +previous`));
      assert.match(harness.stdout(), new RegExp(`${keyed.login} +key +${keyed.key.kid}`));

      clock += 3 * HOUR;
      assert.deepEqual((await ends()).body.ends.filter((end) => [keyed.login, passworded.login].includes(end.partner)), []);
      clock = Date.now();
    });

    it('when the window or the limit is out of bounds, or no credential is given, then 422 or 401, never a list', async () => {
      for (const query of ['?days=0', '?days=91', '?limit=0', '?limit=1001', '?days=soon']) {
        assert.equal((await ends(query)).status, 422, query);
      }
      assert.equal((await t.admin.inject({ method: 'GET', url: ADMIN_CREDENTIAL_ENDS_PATH })).statusCode, 401);
    });
  });
}
