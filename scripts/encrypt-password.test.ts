import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { after, before, describe, it } from 'node:test';
import { promisify } from 'node:util';
import { testBackends } from '../test/support/test-databases.js';
import { startTestGateway, type TestGateway } from '../test/support/test-gateway.js';

const run = promisify(execFile);

describe('scripts/encrypt-password.mjs, as the README uses it', () => {
  let t: TestGateway;
  let url: string;
  before(async () => {
    t = await startTestGateway(testBackends()[0]!);
    url = await t.app.listen({ host: '127.0.0.1', port: 0 });
  });
  after(() => t.close());

  it('prints a JWE that the banks operation accepts once', async () => {
    const partner = await t.addPartner();
    const child = run(process.execPath, ['scripts/encrypt-password.mjs', `${url}/.well-known/jwks.json`]);
    child.child.stdin!.end(partner.password);
    const jwe = (await child).stdout.trim();
    assert.equal(jwe.split('.').length, 5);
    const banks = `${url}/partner/provider/sbp/banks/?partnerName=${partner.login}&useAuthByCert=Y&partnerPassword=${jwe}`;
    const first = await fetch(banks, { method: 'POST' });
    assert.equal(first.status, 200);
    assert.equal(((await first.json()) as { banks: unknown[] }).banks.length, 39);
    assert.equal((await fetch(banks, { method: 'POST' })).status, 401);
  });

  it('refuses to run without a JWKS URL or a password', async () => {
    await assert.rejects(run(process.execPath, ['scripts/encrypt-password.mjs']), (error: { code: number; stderr: string }) => error.code === 2 && /usage/.test(error.stderr));
    const child = run(process.execPath, ['scripts/encrypt-password.mjs', `${url}/.well-known/jwks.json`]);
    child.child.stdin!.end('');
    await assert.rejects(child, (error: { code: number; stderr: string }) => error.code === 2 && /no password/.test(error.stderr));
  });
});
