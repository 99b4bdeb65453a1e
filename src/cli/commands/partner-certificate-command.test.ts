import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { cliHarness } from '../../../test/support/cli-harness.js';
import { createTestPki } from '../../../test/support/openssl-certificates.js';
import { testBackends } from '../../../test/support/test-databases.js';
import { startTestGateway, TEST_ADMIN_TOKEN, type TestGateway } from '../../../test/support/test-gateway.js';
import { readClientCertificate } from '../../mtls/client-certificate.js';
import { createAdminClient } from '../admin-client.js';
import { CliError } from '@partner-gateway/client/cli/cli-io';
import { runGroup } from '@partner-gateway/client/cli/command-group';
import { partnerCommands } from './partner-command.js';

const DAY = 86_400_000;
const pki = createTestPki();
const soon = pki.issue({ subject: '/O=Acme/CN=cli-soon', notAfter: new Date(Date.now() + 10 * DAY) });
const later = pki.issue({ subject: '/O=Acme/CN=cli-later', notAfter: new Date(Date.now() + 90 * DAY) });

describe('partner-gateway partner set-certs, set-subject, delete-certs and show against a running admin API', () => {
  let t: TestGateway;
  let env: Record<string, string>;
  before(async () => {
    t = await startTestGateway(testBackends()[0]!, { seedBanks: false });
    env = { ADMIN_URL: await t.admin.listen({ host: '127.0.0.1', port: 0 }), ADMIN_TOKEN: TEST_ADMIN_TOKEN };
  });
  after(async () => {
    await t.close();
    pki.remove();
  });
  const run = async (args: string[]) => {
    const harness = cliHarness(env);
    await runGroup(partnerCommands, args, harness.io, createAdminClient(harness.io));
    return harness.stdout();
  };

  it('registers PEM files and a subject, and show prints each certificate with its expiry warning', async () => {
    const { login } = await t.addPartner();
    const set = await run(['set-certs', '--yes', login, soon.certPath, later.certPath]);
    assert.match(set, new RegExp(`x5t#S256 ${readClientCertificate(soon.cert).thumbprint}.*expires in (9|10) days`));
    assert.match(set, /CN=cli-later,O=Acme .*until \S+\n/);
    await run(['set-subject', '--yes', login, 'CN=cli-ca, O=Acme']);
    const shown = await run(['show', login]);
    assert.match(shown, /subject DN {2}CN=cli-ca,O=Acme/);
    assert.match(shown, /certificate CN=cli-soon,O=Acme/);
    await assert.rejects(run(['delete-certs', login]), (error: unknown) => error instanceof CliError && /--yes/.test(error.message));
    await run(['delete-certs', login, '--yes']);
    assert.match(await run(['show', login]), /certificates: \(none\)/);
  });
});
