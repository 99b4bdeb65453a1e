import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { runCli } from '../../src/cli/run-cli.js';
import { terminalSafe } from '@partner-gateway/client/cli/terminal-safe';
import { cliHarness } from '../support/cli-harness.js';
import { testBackends } from '../support/test-databases.js';
import { startTestGateway, TEST_ADMIN_TOKEN, type TestGateway } from '../support/test-gateway.js';

// Finding 6 of issue 11: `partner-gateway audit` printed stored logins raw, so a login sent to the public API
// with a newline and a forged row, or with terminal escape sequences, landed on the operator's terminal.
const HOSTILE = 'intruder\n2026-01-01T00:00:00Z  1  login  success  200  acme\u001b[2J\u001b]0;pwned\u0007\u009b31m\u202eevil\u007f';

describe("the CLI's output escapes control characters that came from the server (issue 11, finding 6)", () => {
  let t: TestGateway;
  let env: Record<string, string>;
  before(async () => {
    t = await startTestGateway(testBackends()[0]!);
    env = { ADMIN_URL: await t.admin.listen({ host: '127.0.0.1', port: 0 }), ADMIN_TOKEN: TEST_ADMIN_TOKEN };
    await t.app.inject({ method: 'POST', url: '/api/v1/login/', payload: { login: HOSTILE, password: 'whatever it is' } });
    await t.gateway.admin.audit.flush();
  });
  after(() => t.close());

  const cli = async (args: string[]) => {
    const harness = cliHarness(env);
    const code = await runCli(args, harness.io);
    return { code, stdout: harness.stdout(), stderr: harness.stderr() };
  };
  const assertInert = (output: string) => {
    assert.doesNotMatch(output, /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/, 'no control character but line breaks');
    assert.ok(!output.split('\n').some((line) => line.startsWith('2026-01-01T00:00:00Z')), 'no forged row');
  };

  it('prints the audit table with the hostile login escaped on its own row, cut to the table\'s width or whole', async () => {
    const cut = await cli(['audit', '--action', 'login']);
    assert.equal(cut.code, 0);
    assertInert(cut.stdout);
    const { code, stdout } = await cli(['audit', '--action', 'login', '--wide']);
    assert.equal(code, 0);
    assertInert(stdout);
    assert.ok(stdout.includes('intruder\\n2026-01-01T00:00:00Z'), stdout);
    assert.ok(stdout.includes('\\u001b[2J') && stdout.includes('\\u202eevil') && stdout.includes('\\u009b31m'));
  });

  it('prints the JSON lines escaped too', async () => {
    const { code, stdout } = await cli(['audit', '--action', 'login', '--json']);
    assert.equal(code, 0);
    assertInert(stdout);
    assert.ok(stdout.includes('\\u202eevil'));
  });

  it('escapes C0, DEL, C1 and bidi controls, keeping line breaks only when asked', () => {
    assert.equal(terminalSafe('a\nb\tc\u001bd\u007fe\u0085f\u202eg\u2066h'), 'a\\nb\\tc\\u001bd\\u007fe\\u0085f\\u202eg\\u2066h');
    assert.equal(terminalSafe('line one\nline two\u001b', { keepNewlines: true }), 'line one\nline two\\u001b');
    assert.equal(terminalSafe('Сбербанк, ok'), 'Сбербанк, ok');
  });
});
