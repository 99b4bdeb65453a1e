import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { cliHarness } from '../../../test/support/cli-harness.js';
import { testBackends } from '../../../test/support/test-databases.js';
import { startTestGateway, type TestGateway } from '../../../test/support/test-gateway.js';
import { runCli } from '../run-cli.js';

const JWT = /eyJ[\w-]+\.[\w-]+\.[\w-]+/;

describe('partner-gateway client against a listening gateway', () => {
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
    const code = await runCli(['client', ...args], io);
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
      assert.match(result.stdout, /Usage: partner-gateway client/);
    }
    const cases: Array<[string[], RegExp]> = [
      [['fly'], /Unknown client command fly/],
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
    const child = spawn(process.execPath, ['--import', 'tsx', 'src/cli/main.ts', 'client', 'banks', ...as(partner)], { stdio: ['pipe', 'pipe', 'pipe'] });
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
