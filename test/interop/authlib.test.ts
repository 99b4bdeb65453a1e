/**
 * Interop with Python's Authlib from Debian's packages (python3-authlib, run with /usr/bin/python3), which
 * nobody here wrote: client credentials with private_key_jwt through its OAuth2Session and PrivateKeyJWT,
 * then the banks call with the bearer token it got, and the traps the partner guide warns of
 * (authlib_traps.py: the default alg, jwt.encode's typ, DPoP proofs that work), against a listening gateway. Outside CI a missing
 * python3-authlib is a skip; under CI (CI=true) a failure: .ci/run installs it.
 */
import assert from 'node:assert/strict';
import { execFile, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { projectFile } from '../../src/project-root.js';
import { addKeyPartner, partnerKey, startListeningGateway } from '../support/key-partner.js';
import { testBackends } from '../support/test-databases.js';
import type { TestGateway } from '../support/test-gateway.js';

const PYTHON = '/usr/bin/python3';
const PACKAGES = 'python3-authlib python3-requests python3-cryptography';
const missing = spawnSync(PYTHON, ['-c', 'import authlib, requests, cryptography'], { stdio: 'ignore' }).status !== 0;
const skip = missing && process.env.CI !== 'true' ? `Authlib not installed (apt-get install ${PACKAGES}); required when CI=true` : false;

function runScript(env: Record<string, string>, script = 'authlib_client_credentials.py'): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(PYTHON, [projectFile(`test/interop/${script}`)], { env: { PATH: process.env.PATH ?? '/usr/bin:/bin', ...env }, timeout: 60_000 }, (error, stdout, stderr) =>
      resolve({ code: error ? (typeof error.code === 'number' ? error.code : 1) : 0, stdout, stderr }),
    );
  });
}

describe('Authlib (python3-authlib) against a listening gateway', { skip }, () => {
  let t: TestGateway & { url: string };
  let dir: string;
  before(async () => {
    assert.ok(!missing, `CI=true but Authlib is missing: apt-get install ${PACKAGES}`);
    t = await startListeningGateway(testBackends()[0]!);
    dir = mkdtempSync(join(tmpdir(), 'authlib-'));
  });
  after(async () => {
    await t?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  async function keyFile(key: Awaited<ReturnType<typeof partnerKey>>): Promise<string> {
    const file = join(dir, `${key.kid}.json`);
    writeFileSync(file, JSON.stringify(key.privateJwk));
    return file;
  }

  it('gets a bearer token with private_key_jwt (ES256 and PS256) and lists the banks with it', async () => {
    const expected = (await t.gateway.admin.banks.list()).length;
    for (const alg of ['ES256', 'PS256'] as const) {
      const partner = await addKeyPartner(t, { key: await partnerKey(alg) });
      const result = await runScript({ GATEWAY_URL: t.url, PARTNER_LOGIN: partner.login, PARTNER_KEY_FILE: await keyFile(partner.key), PROVIDER_SEGMENT: 'provider' });
      assert.equal(result.code, 0, `${alg}: ${result.stdout}\n${result.stderr}`);
      assert.deepEqual(JSON.parse(result.stdout), { token_type: 'Bearer', expires_in: 900, banks: expected });
    }
  });

  it('is refused, and says so, with a key the gateway does not hold for the partner', async () => {
    const partner = await addKeyPartner(t);
    const stranger = await partnerKey('ES256', partner.key.kid);
    const result = await runScript({ GATEWAY_URL: t.url, PARTNER_LOGIN: partner.login, PARTNER_KEY_FILE: await keyFile(stranger), PROVIDER_SEGMENT: 'provider' });
    assert.equal(result.code, 1);
    assert.equal(result.stdout, '');
    assert.match(result.stderr, /token request refused: invalid_client/);
  });

  it('shows the guide\'s Authlib traps: PrivateKeyJWT signs RS256 unless given alg and aims at the token endpoint unless given aud (refused, saying so), jwt.encode writes typ JWT into a DPoP proof (refused), JsonWebSignature keeps dpop+jwt (accepted)', async () => {
    const expected = (await t.gateway.admin.banks.list()).length;
    const partner = await addKeyPartner(t, { requireBound: true });
    const result = await runScript({ GATEWAY_URL: t.url, PARTNER_LOGIN: partner.login, PARTNER_KEY_FILE: await keyFile(partner.key), PROVIDER_SEGMENT: 'provider' }, 'authlib_traps.py');
    assert.equal(result.code, 0, `${result.stdout}\n${result.stderr}`);
    assert.deepEqual(JSON.parse(result.stdout), {
      default_alg_error: 'Missing required field: "e"',
      default_aud_status: 401,
      default_aud_description: `the client assertion's aud must be the issuer identifier ${t.url} as a single string`,
      encode_typ: 'JWT',
      encode_status: 400,
      serialized_typ: 'dpop+jwt',
      token_type: 'DPoP',
      banks: expected,
    });
  });
});
