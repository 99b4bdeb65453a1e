import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { runCli } from '../../src/cli/run-cli.js';
import { cliHarness } from '../support/cli-harness.js';
import { startGatewayProcess, stopGatewayProcess, type GatewayProcess } from '../support/gateway-process.js';
import { waitFor } from '../support/wait-for.js';

const ADMIN_TOKEN = randomBytes(24).toString('hex');
const MASTER_KEY = randomBytes(32).toString('hex');
const BANKS = '/partner/provider/sbp/banks/';
// One issuer for both gateways, as a restored deployment keeps its address: tokens of the first stay valid.
const env = (dataDir: string) => ({ DATA_DIR: dataDir, ADMIN_TOKEN, MASTER_KEY, PUBLIC_URL: 'http://gateway.test' });

describe('partner-gateway backup and restore of the embedded database', () => {
  const work = mkdtempSync(join(tmpdir(), 'backup-restore-'));
  const [first, second] = [join(work, 'first'), join(work, 'second')];
  const file = join(work, 'gateway.tar.gz');
  const partner = { login: 'backup-shop', password: 'a partner password for the backup' };
  let a: GatewayProcess | undefined;
  let b: GatewayProcess | undefined;
  before(async () => {
    a = await startGatewayProcess(env(first));
  });
  after(async () => {
    for (const gateway of [a, b]) if (gateway) await stopGatewayProcess(gateway);
    rmSync(work, { recursive: true, force: true });
  });
  const admin = async (gateway: GatewayProcess, path: string, init: RequestInit = {}) => {
    const response = await fetch(`${gateway.admin}${path}`, { ...init, headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json', ...init.headers } });
    return { status: response.status, body: (await response.json()) as Record<string, unknown> };
  };
  const cli = async (args: string[], extra: Record<string, string>) => {
    const harness = cliHarness({ ADMIN_TOKEN, ...extra });
    const code = await runCli(args, harness.io);
    return { code, stdout: harness.stdout(), stderr: harness.stderr() };
  };
  const banks = async (gateway: GatewayProcess, token: string) => {
    const response = await fetch(`${gateway.base}${BANKS}`, { method: 'POST', headers: { authorization: `Bearer ${token}` } });
    return { status: response.status, etag: response.headers.get('etag'), body: Buffer.from(await response.arrayBuffer()) };
  };
  const auditIds = async (gateway: GatewayProcess) =>
    new Map(((await admin(gateway, '/admin/v1/audit?limit=1000')).body.entries as Array<{ id: string }>).map((entry) => [entry.id, JSON.stringify(entry)]));

  it('when a serving gateway is backed up and restored into a new DATA_DIR, then the new one answers banks byte for byte, with the same partners, keys and audit', async () => {
    assert.equal((await admin(a!, '/admin/v1/partners', { method: 'POST', body: JSON.stringify({ ...partner, ipAllowlist: ['127.0.0.1'], rewardTypes: ['sbp'] }) })).status, 201);
    assert.equal((await admin(a!, '/admin/v1/keys/rotate', { method: 'POST', body: JSON.stringify({ use: 'sig' }) })).status, 201);
    const login = await fetch(`${a!.base}/api/v1/login/`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(partner) });
    const token = ((await login.json()) as { access_token: string }).access_token;
    const before = await banks(a!, token);
    assert.equal(before.status, 200);
    await waitFor(async () => [...(await auditIds(a!)).values()].some((entry) => entry.includes('"login"')), { message: 'the login in the audit trail' });
    const auditBefore = await auditIds(a!);

    // Partners keep calling while the copy is taken: not one call fails.
    let calling = true;
    const statuses: number[] = [];
    const load = (async () => {
      while (calling) statuses.push((await banks(a!, token)).status);
    })();
    const backup = await cli(['backup', file], { ADMIN_URL: a!.admin });
    calling = false;
    await load;
    assert.equal(backup.code, 0, backup.stderr);
    assert.match(backup.stdout, /^Backed up to .*gateway\.tar\.gz: [\d.]+ MB \(\d+ bytes\), sha256 [0-9a-f]{64}\n$/);
    assert.equal(statSync(file).mode & 0o777, 0o600, 'readable by its owner alone');
    assert.ok(statuses.length > 0 && statuses.every((status) => status === 200), `calls during the backup: ${statuses.join(',')}`);
    const partners = (await admin(a!, '/admin/v1/partners')).body;
    const keys = (await admin(a!, '/admin/v1/keys')).body;

    const locked = await cli(['restore', file, '--yes'], { DATA_DIR: first });
    assert.equal(locked.code, 1, 'a running gateway holds its DATA_DIR');
    assert.match(locked.stderr, /^DATA_DIR: /);
    const again = await cli(['backup', file], { ADMIN_URL: a!.admin });
    assert.deepEqual([again.code, again.stderr.trim()], [2, `${file} exists: choose another name, or pass --force to replace it`]);

    const auditAfter = await auditIds(a!);
    await stopGatewayProcess(a!);
    a = undefined;
    const restored = await cli(['restore', file], { DATA_DIR: second });
    assert.equal(restored.code, 0, restored.stderr);
    assert.match(restored.stdout, /^Restored .* into .*second: \d+ migrations, 1 partners, \d+ audit entries, bank list version 1\.\n/);

    const restart = new Date().toISOString();
    b = await startGatewayProcess(env(second));
    const after = await banks(b, token);
    assert.equal(after.status, 200, 'the token the first gateway issued: the same keys');
    assert.deepEqual([after.etag, after.body], [before.etag, before.body]);
    assert.deepEqual((await admin(b, '/admin/v1/partners')).body, partners);
    assert.deepEqual((await admin(b, '/admin/v1/keys')).body, keys);
    const auditRestored = await auditIds(b);
    for (const [id, entry] of auditBefore) assert.equal(auditRestored.get(id), entry, `audit entry ${id} made before the backup`);
    // What the restored database held (made before the restarted gateway's own entries) is what the first one had.
    const held = [...auditRestored].filter(([, entry]) => (JSON.parse(entry) as { at: string }).at < restart);
    assert.match(restored.stdout, new RegExp(` ${held.length} audit entries`));
    for (const [id, entry] of held) assert.equal(entry, auditAfter.get(id), `audit entry ${id}`);
    const relogin = await fetch(`${b.base}/api/v1/login/`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(partner) });
    assert.equal(relogin.status, 200, 'the password hash came along');
  });

  it('when restoring over a database, then it asks (no terminal: --yes), refuses a file that is not a backup changing nothing, and keeps the replaced database to undo', async () => {
    assert.ok(b, 'runs after the first test');
    await stopGatewayProcess(b);
    b = undefined;
    const unasked = await cli(['restore', file], { DATA_DIR: second });
    assert.deepEqual([unasked.code, unasked.stderr.trim()], [1, 'Nothing changed. (Without a terminal, pass --yes.)']);
    const bogus = join(work, 'not-a-backup.tar.gz');
    writeFileSync(bogus, randomBytes(4096));
    const refused = await cli(['restore', bogus, '--yes'], { DATA_DIR: second });
    assert.equal(refused.code, 1);
    assert.match(refused.stderr, /^The file is not a backup of the embedded database .*Nothing changed\.\n$/);
    const withDatabaseUrl = await cli(['restore', file, '--yes'], { DATA_DIR: second, DATABASE_URL: 'postgres://db.example/gateway' });
    assert.deepEqual([withDatabaseUrl.code, withDatabaseUrl.stderr], [2, 'DATABASE_URL is set: the gateway runs on PostgreSQL; restore it with pg_restore (docs/operations-database.md)\n']);
    assert.deepEqual(readdirSync(second).filter((name) => name.startsWith('pglite')), ['pglite'], 'nothing changed so far');

    const replaced = await cli(['restore', file, '--yes'], { DATA_DIR: second });
    assert.equal(replaced.code, 0, replaced.stderr);
    const kept = readdirSync(second).filter((name) => name.startsWith('pglite.before-restore-'));
    assert.equal(kept.length, 1);
    assert.match(replaced.stdout, new RegExp(`The database that was there is kept in .*${kept[0]}\\.`));
    assert.ok(existsSync(join(second, kept[0]!, 'PG_VERSION')));
    b = await startGatewayProcess(env(second));
    assert.equal((await admin(b, '/admin/v1/partners')).body.partners instanceof Array, true);
  });
});
