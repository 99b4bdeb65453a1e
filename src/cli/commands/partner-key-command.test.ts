import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { cliHarness } from '../../../test/support/cli-harness.js';
import { partnerPublicJwk, serveJwks } from '../../../test/support/partner-jwk.js';
import { testBackends } from '../../../test/support/test-databases.js';
import { startTestGateway, TEST_ADMIN_TOKEN, type TestGateway } from '../../../test/support/test-gateway.js';
import { createAdminClient } from '../admin-client.js';
import { CliError } from '@partner-gateway/client/cli/cli-io';
import { runCli } from '../run-cli.js';
import { runGroup } from '@partner-gateway/client/cli/command-group';
import { partnerCommands } from './partner-command.js';

describe('partner-gateway partner set-jwks, delete-jwks and show against a running admin API', () => {
  let t: TestGateway;
  let env: Record<string, string>;
  let dir: string;
  before(async () => {
    t = await startTestGateway(testBackends()[0]!);
    env = { ADMIN_URL: await t.admin.listen({ host: '127.0.0.1', port: 0 }), ADMIN_TOKEN: TEST_ADMIN_TOKEN };
    dir = await mkdtemp(join(tmpdir(), 'partner-jwks-'));
  });
  after(async () => {
    await t.close();
    await rm(dir, { recursive: true, force: true });
  });

  const run = async (args: string[]) => {
    const harness = cliHarness(env);
    await runGroup(partnerCommands, args, harness.io, createAdminClient(harness.io));
    return harness.stdout();
  };
  const file = async (name: string, content: unknown) => {
    const path = join(dir, name);
    await writeFile(path, typeof content === 'string' ? content : JSON.stringify(content));
    return path;
  };

  it('registers a JWK Set file or a single JWK, and show prints methods, binding and each key', async () => {
    const partner = await t.addPartner();
    const ec = await partnerPublicJwk('ES256', 'cli-ec');
    const rsa = await partnerPublicJwk('PS256', 'cli-rsa');
    const set = await run(['set-jwks', '--yes', partner.login, await file('set.json', { keys: [ec.jwk, rsa.jwk] })]);
    assert.match(set, new RegExp(`Keys of ${partner.login} registered`));
    assert.match(set, new RegExp(`cli-ec  EC P-256  ES256  ${ec.thumbprint}`));
    assert.match(set, new RegExp(`cli-rsa  RSA 2048  PS256  ${rsa.thumbprint}`));

    const ed = await partnerPublicJwk('EdDSA', 'cli-ed');
    await run(['set-jwks', '--yes', partner.login, await file('one.json', ed.jwk)]);
    const shown = await run(['show', partner.login]);
    assert.match(shown, /auth methods: password\n/);
    assert.match(shown, /bound tokens: not required\n/);
    assert.match(shown, new RegExp(`keys: +cli-ed  OKP Ed25519  EdDSA  ${ed.thumbprint}`));
    assert.ok(!shown.includes('cli-ec'), 'a new set replaces the old one');
  });

  it('registers a jwksUri and shows the URL and when it was last fetched', async () => {
    const partner = await t.addPartner();
    const key = await partnerPublicJwk('ES256', 'cli-remote');
    const server = await serveJwks(() => ({ text: JSON.stringify({ keys: [key.jwk] }) }));
    try {
      await run(['set-jwks', '--yes', partner.login, server.url]);
      const shown = await run(['show', partner.login]);
      assert.match(shown, new RegExp(`jwks URL: +${server.url.replace(/[.]/g, '\\.')}\n`));
      assert.match(shown, /last fetched: \d{4}-\d\d-\d\dT/);
      assert.match(shown, new RegExp(`cli-remote  EC P-256  ES256  ${key.thumbprint}`));
    } finally {
      await server.close();
    }
  });

  it('reports refused keys, unreadable files and bad JSON clearly, without echoing a private key', async () => {
    const partner = await t.addPartner();
    const key = await partnerPublicJwk('ES256', 'leaked');
    await assert.rejects(run(['set-jwks', '--yes', partner.login, await file('private.json', { keys: [key.privateJwk] })]), (error: Error) => {
      assert.match(error.message, /Error 422/);
      assert.match(error.message, /keys\[0\] \(kid "leaked"\).*private key material/);
      assert.ok(!error.message.includes(key.privateJwk.d!));
      return true;
    });
    await assert.rejects(run(['set-jwks', '--yes', partner.login, join(dir, 'missing.json')]), (error: CliError) => error.exitCode === 2 && /Cannot read .*ENOENT/.test(error.message));
    await assert.rejects(run(['set-jwks', '--yes', partner.login, await file('bad.json', '{not json')]), /is not JSON/);
    await assert.rejects(run(['set-jwks', '--yes', partner.login, await file('array.json', [1, 2])]), /must hold a JWK Set/);
    await assert.rejects(run(['set-jwks', '--yes', partner.login, await file('empty.json', { keys: [] })]), (error: CliError) => error.exitCode === 2 && /empty JWK Set/.test(error.message));
    await assert.rejects(run(['set-jwks', '--yes', partner.login, 'http://192.0.2.1/jwks.json']), /jwksUri: must be an https URL/);
    await assert.rejects(run(['set-jwks', '--yes', 'nobody-here', await file('ok.json', key.jwk)]), /Error 404/);
  });

  it('removes the keys only with --yes, and show then says there are none', async () => {
    const partner = await t.addPartner();
    const key = await partnerPublicJwk('ES256', 'cli-delete');
    await run(['set-jwks', '--yes', partner.login, await file('delete.json', { keys: [key.jwk] })]);
    await assert.rejects(run(['delete-jwks', partner.login]), (error: CliError) => error.exitCode === 2 && /cannot use private_key_jwt.*--yes/.test(error.message));
    assert.notEqual((await t.gateway.admin.partners.get(partner.login)).jwks, null);
    assert.match(await run(['delete-jwks', partner.login, '--yes']), new RegExp(`Keys of ${partner.login} removed`));
    assert.match(await run(['show', partner.login]), /keys: +\(none\)/);
  });

  it('prints a refusal naming a hostile kid through the terminal-safe printer', async () => {
    const partner = await t.addPartner();
    const key = await partnerPublicJwk('ES256', 'evil\u001b[2J\u202ekid');
    const harness = cliHarness(env);
    const code = await runCli(['partner', 'set-jwks', '--yes', partner.login, await file('evil.json', { keys: [key.jwk] })], harness.io);
    assert.equal(code, 1);
    assert.match(harness.stderr(), /kid must be 1-128 printable ASCII characters/);
    assert.ok(!harness.stderr().includes('\u001b') && !harness.stderr().includes('\u202e'), 'no raw escape or bidi override reaches the terminal');
    assert.match(harness.stderr(), /\\u202e/);
  });
});
