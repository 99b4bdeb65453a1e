import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { generateKeyPairSync } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { decodeJwt } from 'jose';
import { cliHarness } from '../../../../test/support/cli-harness.js';
import { addKeyPartner, partnerKey, startListeningGateway } from '../../../../test/support/key-partner.js';
import { nodeEntry } from '../../../../test/support/node-entry.js';
import { testBackends } from '../../../../test/support/test-databases.js';
import { startTestGateway, type TestGateway } from '../../../../test/support/test-gateway.js';
import { runPartnerCli } from './run-partner-cli.js';

const JWT = /eyJ[\w-]+\.[\w-]+\.[\w-]+/;

describe('partner-gateway-client against a listening gateway', () => {
  let t: TestGateway;
  let url: string;
  let partner: { login: string; password: string };
  before(async () => {
    t = await startTestGateway(testBackends()[0]!);
    url = await t.app.listen({ host: '127.0.0.1', port: 0 });
    partner = await t.addPartner();
  });
  after(() => t.close());

  async function cli(args: string[], stdin = '') {
    const { io, stdout, stderr } = cliHarness({}, stdin);
    const code = await runPartnerCli(args, io);
    return { code, stdout: stdout(), stderr: stderr() };
  }
  const as = (who: { login: string }) => ['--auth-url', url, '--api-url', url, '--login', who.login, '--password-stdin'];

  it('logs in with the password from stdin and prints when the token expires, never the token', async () => {
    const result = await cli(['login', ...as(partner)], `${partner.password}\n`);
    assert.equal(result.code, 0, result.stderr);
    assert.match(result.stdout, new RegExp(`Logged in as ${partner.login}\\. The access token expires at \\d{4}-\\d\\d-\\d\\dT[\\d:.]+Z \\(in 900 s\\)`));
    assert.doesNotMatch(result.stdout + result.stderr, JWT);
  });

  it('prints the access token, its lifetime and its expiry with --json, never the refresh token', async () => {
    const result = await cli(['login', ...as(partner), '--json'], partner.password);
    assert.equal(result.code, 0, result.stderr);
    const body = JSON.parse(result.stdout);
    assert.deepEqual(Object.keys(body).sort(), ['access_token', 'expires_at', 'expires_in', 'token_type']);
    assert.doesNotMatch(result.stdout + result.stderr, /refresh/i);
    assert.match(body.access_token, JWT);
    assert.deepEqual({ token_type: body.token_type, expires_in: body.expires_in }, { token_type: 'bearer', expires_in: 900 });
    assert.ok(!Number.isNaN(Date.parse(body.expires_at)));
  });

  it('lists the banks as a BIC and NAME table, or as JSON', async () => {
    const banks = (await t.gateway.admin.banks.list()).map(({ name, bic }) => ({ name, bic }));
    const tableResult = await cli(['banks', ...as(partner)], partner.password);
    assert.equal(tableResult.code, 0, tableResult.stderr);
    const lines = tableResult.stdout.trimEnd().split('\n');
    assert.match(lines[0]!, /^BIC\s+NAME$/);
    assert.equal(lines.length, banks.length + 1);
    assert.match(lines[1]!, new RegExp(`^${banks[0]!.bic}\\s+${banks[0]!.name}$`));
    const json = await cli(['banks', ...as(partner), '--json'], partner.password);
    assert.deepEqual(JSON.parse(json.stdout), { banks });
  });

  it('lists the banks with the encrypted password, needing only --api-url', async () => {
    const result = await cli(['banks', '--with-password', '--api-url', url, '--login', partner.login, '--password-stdin', '--json'], partner.password);
    assert.equal(result.code, 0, result.stderr);
    assert.ok(JSON.parse(result.stdout).banks.length > 0);
  });

  it('prints the kind and description of a refusal and exits 1', async () => {
    const wrong = await cli(['login', ...as(partner)], 'not the password at all');
    assert.equal(wrong.code, 1);
    assert.match(wrong.stderr, /^Error: unauthorized \(HTTP 401\): User failed authorization; access to the resource is restricted\nCheck the login/);
    assert.ok(!wrong.stderr.includes('not the password at all'));
    const outsider = await t.addPartner({ ipAllowlist: ['10.0.0.0/8'] });
    const ip = await cli(['banks', ...as(outsider)], outsider.password);
    assert.equal(ip.code, 1);
    assert.match(ip.stderr, /^Error: ip_blocked \(HTTP 403\): Access from this IP address is blocked; contact the account manager/);
    const provider = await cli(['banks', ...as(partner), '--provider', 'nope'], partner.password);
    assert.equal(provider.code, 1);
    assert.match(provider.stderr, /^Error: invalid_request \(HTTP 404\)/);
  });

  it('exits 3 when nothing answers at the address', async () => {
    const closed = `http://127.0.0.1:${await freePort()}`;
    const result = await cli(['login', '--auth-url', closed, '--login', partner.login, '--password-stdin'], partner.password);
    assert.equal(result.code, 3);
    assert.match(result.stderr, /^Error: network \(no answer\): The gateway could not be reached \(ECONNREFUSED\)\nIs the gateway running/);
  });

  it('prints help for client, login and banks, and usage errors exit 2', async () => {
    for (const args of [['--help'], [], ['login', '--help'], ['banks', '--help']]) {
      const result = await cli(args);
      assert.equal(result.code, 0, args.join(' '));
      assert.match(result.stdout, /Usage: partner-gateway-client/);
    }
    const cases: Array<[string[], RegExp]> = [
      [['fly'], /Unknown command: partner-gateway-client fly/],
      [['login', '--login', 'x', '--password-stdin'], /--auth-url is required/],
      [['banks', '--auth-url', url, '--login', 'x', '--password-stdin'], /--api-url is required/],
      [['banks', '--with-password', '--api-url', url, '--password-stdin'], /--login is required/],
      [['login', '--with-password', '--auth-url', url, '--login', 'x'], /Unknown option '--with-password'/],
      [['login', '--auth-url', 'ftp://example.com', '--login', 'x', '--password-stdin'], /--auth-url must be an http or https URL/],
      [['login', '--auth-url', url, '--login', 'x'], /--password-stdin/],
    ];
    for (const [args, message] of cases) {
      const result = await cli(args);
      assert.equal(result.code, 2, args.join(' '));
      assert.match(result.stderr, message);
    }
  });

  it('runs as a process, reading the password piped to it', async () => {
    const child = spawn(process.execPath, [...nodeEntry('packages/client/src/cli/main.ts'), 'banks', ...as(partner)], { stdio: ['pipe', 'pipe', 'pipe'] });
    child.stdin.end(partner.password);
    const output: string[] = [];
    child.stdout.on('data', (chunk) => output.push(String(chunk)));
    const code = await new Promise((resolve) => child.on('exit', resolve));
    assert.equal(code, 0);
    assert.match(output.join(''), /^BIC\s+NAME\n044/);
  });
});

/** A port nothing listens on: bound once by the OS, then released. */
async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

describe('partner-gateway-client with the partner\'s private key', () => {
  let t: TestGateway & { url: string };
  let dir: string;
  before(async () => {
    t = await startListeningGateway(testBackends()[0]!);
    dir = mkdtempSync(join(tmpdir(), 'client-keys-'));
  });
  after(async () => {
    await t.close();
    rmSync(dir, { recursive: true, force: true });
  });

  async function cli(args: string[], stdin = '') {
    const { io, stdout, stderr } = cliHarness({}, stdin);
    const code = await runPartnerCli(args, io);
    return { code, stdout: stdout(), stderr: stderr() };
  }
  /** The partner's key written as a PEM file and as a private JWK file, as a partner keeps it. */
  async function keyFiles(alg: 'ES256' | 'EdDSA' | 'PS256' = 'ES256') {
    const partner = await addKeyPartner(t, { key: await partnerKey(alg) });
    const pem = join(dir, `${partner.login}.pem`);
    const jwk = join(dir, `${partner.login}.jwk.json`);
    writeFileSync(pem, partner.key.pem);
    writeFileSync(jwk, JSON.stringify(partner.key.privateJwk));
    return { partner, pem, jwk, args: ['--auth-url', t.url, '--api-url', t.url, '--login', partner.login, '--kid', partner.key.kid] };
  }

  it('login with --private-key prints the token type and expiry, never the token or the key', async () => {
    const { partner, pem, args } = await keyFiles();
    const result = await cli(['login', ...args, '--private-key', pem]);
    assert.equal(result.code, 0, result.stderr);
    assert.match(result.stdout, new RegExp(`^Logged in as ${partner.login} with the key ${partner.key.kid}\\. The Bearer access token expires at \\d{4}-[\\d-]+T[\\d:.]+Z \\(in 900 s\\)`));
    assert.doesNotMatch(result.stdout + result.stderr, JWT);
    const dpop = await cli(['login', ...args, '--private-key', pem, '--dpop']);
    assert.match(dpop.stdout, /The DPoP access token expires at/);
    assert.doesNotMatch(dpop.stdout + dpop.stderr, JWT);
  });

  it('login --json prints the token and its type; the DPoP one is bound (cnf.jkt)', async () => {
    const { jwk, args } = await keyFiles('EdDSA');
    const result = await cli(['login', ...args, '--private-key', jwk, '--dpop', '--json']);
    assert.equal(result.code, 0, result.stderr);
    const body = JSON.parse(result.stdout);
    assert.equal(body.token_type, 'DPoP');
    assert.ok(typeof decodeJwt(body.access_token).cnf === 'object');
  });

  it('banks with --private-key and --dpop, from a PEM and from a JWK file, prints the table', async () => {
    const { pem, jwk, args } = await keyFiles('PS256');
    const count = (await t.gateway.admin.banks.list()).length;
    for (const file of [pem, jwk]) {
      const result = await cli(['banks', ...args, '--private-key', file, '--dpop']);
      assert.equal(result.code, 0, result.stderr);
      assert.equal(result.stdout.trimEnd().split('\n').length, count + 1);
    }
  });

  it('a key the gateway does not hold for the partner: unauthorized, exit 1, with the key hint', async () => {
    const { args } = await keyFiles();
    const stranger = join(dir, 'stranger.pem');
    writeFileSync(stranger, (await partnerKey()).pem);
    const result = await cli(['banks', ...args, '--private-key', stranger]);
    assert.equal(result.code, 1);
    assert.match(result.stderr, /^Error: unauthorized \(HTTP 401\): .+\nCheck the login, the key and --kid/);
  });

  it('usage errors exit 2: --kid missing or alone, both password and key, --with-password with a key, an unreadable or unsupported key file', async () => {
    const { pem, args } = await keyFiles();
    const withoutKid = args.filter((arg, i) => arg !== '--kid' && args[i - 1] !== '--kid');
    const p384 = join(dir, 'p384.pem');
    writeFileSync(p384, generateKeyPairSync('ec', { namedCurve: 'P-384' }).privateKey.export({ type: 'pkcs8', format: 'pem' }));
    const notKey = join(dir, 'not-a-key.json');
    writeFileSync(notKey, '{"kty": "EC"');
    const cases: Array<[string[], RegExp]> = [
      [['login', ...withoutKid, '--private-key', pem], /--private-key needs --kid/],
      [['login', ...args, '--password-stdin'], /--kid goes with --private-key/],
      [['login', ...args, '--private-key', pem, '--password-stdin'], /--password-stdin or --private-key, not both/],
      [['banks', '--with-password', ...args, '--private-key', pem], /--with-password needs the password/],
      [['login', ...args, '--private-key', join(dir, 'missing.pem')], /Cannot read --private-key .*missing\.pem \(ENOENT\)/],
      [['login', ...args, '--private-key', p384], /Unsupported key \(ec secp384r1\)/],
      [['login', ...args, '--private-key', notKey], /neither a PEM nor a JSON Web Key/],
    ];
    for (const [argv, message] of cases) {
      const result = await cli(argv, 'a password');
      assert.equal(result.code, 2, argv.join(' '));
      assert.match(result.stderr, message);
      assert.doesNotMatch(result.stderr, /PRIVATE KEY/);
    }
  });
});
