/**
 * The partner examples (examples/python, php, java, go), each run through its own run.sh against a gateway
 * process, as a partner would run it: both printed counts must be the gateway's own list, and an error must
 * end the example with the gateway's description_status. Outside CI an example whose toolchain is missing is
 * skipped (and the run's summary says so); under CI (CI=true) that is a failure: .ci/run installs them.
 */
import assert from 'node:assert/strict';
import { execFile, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { texts } from '../../src/errors.js';
import { projectFile } from '../../src/project-root.js';
import { startGatewayProcess, stopGatewayProcess, type GatewayProcess } from '../support/gateway-process.js';

const ADMIN_TOKEN = randomBytes(24).toString('hex');
const PROVIDER_SEGMENT = 'examplepay';
const ON_CI = process.env.CI === 'true';

/** Each example, and a command that succeeds when what its run.sh needs is installed. */
const examples: Array<{ name: string; toolchain: string[]; packages: string }> = [
  { name: 'python', toolchain: ['/usr/bin/python3', '-c', 'import cryptography'], packages: 'python3-cryptography' },
  { name: 'php', toolchain: ['php', '-r', 'require "phpseclib3/autoload.php"; new phpseclib3\\Math\\BigInteger(1);'], packages: 'php-cli php-phpseclib3' },
  { name: 'java', toolchain: ['javac', '-version'], packages: 'default-jdk-headless' },
  { name: 'go', toolchain: ['go', 'version'], packages: 'golang-go' },
];

const installed = (command: string[]) => spawnSync(command[0]!, command.slice(1), { stdio: 'ignore' }).status === 0;

/**
 * Runs examples/<name>/run.sh with only what a partner sets: the four settings, PATH and HOME, no locale
 * (so an example must not depend on a UTF-8 locale to send a non-ASCII password).
 */
function runExample(name: string, settings: Record<string, string>): Promise<{ code: number; stdout: string; stderr: string }> {
  const env = { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: process.env.HOME ?? tmpdir(), TMPDIR: tmpdir(), ...settings };
  return new Promise((resolve) => {
    execFile(projectFile(`examples/${name}/run.sh`), { env, timeout: 180_000 }, (error, stdout, stderr) => {
      resolve({ code: error ? (typeof error.code === 'number' ? error.code : 1) : 0, stdout, stderr });
    });
  });
}

describe('partner examples against a live gateway', () => {
  let gateway: GatewayProcess;
  let dataDir: string;
  // Quotes, a backslash, URL-special and non-ASCII characters: every example must encode them right, in JSON
  // for the login and in the JWE plaintext.
  const partner = { login: 'example-partner', password: `p"ss\\wörd +&=? ${randomBytes(6).toString('hex')}` };
  let expected: number;
  const admin = (path: string, init: RequestInit = {}) =>
    fetch(`${gateway.admin}${path}`, { ...init, headers: { authorization: `Bearer ${ADMIN_TOKEN}`, ...(init.body ? { 'content-type': 'application/json' } : {}) } });
  const settings = () => ({ GATEWAY_URL: gateway.base, PROVIDER_SEGMENT, PARTNER_LOGIN: partner.login, PARTNER_PASSWORD: partner.password });

  before(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'examples-gateway-'));
    gateway = await startGatewayProcess({ DATA_DIR: dataDir, ADMIN_TOKEN, PROVIDER_SEGMENT, THROTTLE_MAX_FAILURES: '1000' });
    const created = await admin('/admin/v1/partners', { method: 'POST', body: JSON.stringify({ ...partner, ipAllowlist: ['127.0.0.1', '::1'], rewardTypes: ['sbp'] }) });
    assert.equal(created.status, 201, await created.clone().text());
    // A list that is not the seeded one, with a name that looks like JSON to a careless parser.
    const added = await admin('/admin/v1/banks', { method: 'POST', body: JSON.stringify({ bic: '044599001', name: 'Банк "bic": {пример}' }) });
    assert.equal(added.status, 201, await added.clone().text());
    for (const bic of ['044525225', '044525974']) assert.equal((await admin(`/admin/v1/banks/${bic}`, { method: 'DELETE' })).status, 204);

    const login = await fetch(`${gateway.base}/api/v1/login/`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(partner) });
    assert.equal(login.status, 200);
    const { access_token: token } = (await login.json()) as { access_token: string };
    const banks = await fetch(`${gateway.base}/partner/${PROVIDER_SEGMENT}/sbp/banks/`, { method: 'POST', headers: { authorization: `Bearer ${token}` } });
    expected = ((await banks.json()) as { banks: unknown[] }).banks.length;
    const registry = ((await (await admin('/admin/v1/banks')).json()) as { banks: unknown[] }).banks.length;
    assert.equal(expected, registry, 'the partner sees the whole registry');
    assert.equal(expected, 38, 'the seeded 39, one added, two removed');
  });

  after(async () => {
    if (gateway) await stopGatewayProcess(gateway);
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  for (const example of examples) {
    const missing = !installed(example.toolchain);
    const skip = missing && !ON_CI ? `${example.name} toolchain not installed (apt-get install ${example.packages}); required when CI=true` : false;

    it(`${example.name}: logs in, lists the banks with the token and with a fresh JWE, and prints both counts`, { skip }, async () => {
      assert.ok(!missing, `CI=true but the ${example.name} toolchain is missing: apt-get install ${example.packages}`);
      const result = await runExample(example.name, settings());
      assert.equal(result.code, 0, `${result.stdout}\n${result.stderr}`);
      assert.equal(result.stdout, `banks: ${expected}\nbanks: ${expected}\n`);
    });

    it(`${example.name}: exits non-zero with the gateway's description_status on an error`, { skip }, async () => {
      assert.ok(!missing, `CI=true but the ${example.name} toolchain is missing: apt-get install ${example.packages}`);
      const result = await runExample(example.name, { ...settings(), PARTNER_PASSWORD: 'not the password' });
      assert.notEqual(result.code, 0);
      assert.equal(result.stdout, '');
      assert.ok(result.stderr.includes(texts.unauthorized), result.stderr);
    });
  }
});
