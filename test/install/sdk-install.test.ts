/**
 * The partner kit as a partner gets it: `npm run pack:sdk`'s two tarballs installed, with the partner guide's
 * own install command, into an empty folder outside the repository (no node_modules of ours in reach, no folder
 * of ours on PATH, no npm settings of ours); from there the guide's TypeScript examples are compiled by the
 * project's own TypeScript with the guide's tsconfig and run, with require() and the CLI, against a gateway
 * process (src/main.ts) with an HTTPS listener for the client-certificate example.
 */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { exportPKCS8, exportJWK, generateKeyPair } from 'jose';
import { projectFile } from '../../src/project-root.js';
import { freePort } from '../support/free-port.js';
import { startGatewayProcess, stopGatewayProcess, type GatewayProcess } from '../support/gateway-process.js';
import { createTestPki } from '../support/openssl-certificates.js';
import { setUpGuideProject, guideSdk } from '../support/partner-guide.js';
import { createPartnerProject, installedPackages, type PartnerProject } from '../support/partner-project.js';

const { installCommand, examples } = guideSdk;
const version = (JSON.parse(readFileSync(projectFile('package.json'), 'utf8')) as { version: string }).version;
const ADMIN_TOKEN = randomBytes(24).toString('hex');

/** Type assertions compiled with the examples: had the packages no types, `@ts-expect-error` would itself be an error. */
const TYPE_CHECKS = `import { PartnerApiError, PartnerClient, type Bank } from '@partner-gateway/client';
import { BanksResponse } from '@partner-gateway/contract/public-api';
import { LOGIN_PATH } from '@partner-gateway/contract/paths';

const bank: Bank = { name: 'Сбербанк', bic: '044525225' };
// @ts-expect-error a BIC is a string
const bic: number = bank.bic;
// @ts-expect-error the client needs its URLs and login
new PartnerClient({ login: 'acme' });
const kind: PartnerApiError['kind'] = 'ip_blocked';
const path: '/api/v1/login/' = LOGIN_PATH;
export const checked = [bic, kind, path, BanksResponse.type];
`;

/** A CommonJS module of the partner's: require() of the ESM packages (Node 20.19+), typed by TypeScript too. */
const REQUIRE_CHECK = `import sdk = require('@partner-gateway/client');
import paths = require('@partner-gateway/contract/paths');

const client: sdk.PartnerClient = new sdk.PartnerClient({
  authUrl: process.env.GATEWAY_URL!,
  apiUrl: process.env.GATEWAY_URL!,
  login: process.env.PARTNER_LOGIN!,
  password: process.env.PARTNER_PASSWORD!,
});
client.banks().then((banks: sdk.Bank[]) => console.log(\`banks: \${banks.length} (\${paths.banksPath('provider')})\`));
`;

describe('the SDK and the partner CLI installed from their tarballs into an empty folder outside the repository', () => {
  let project: PartnerProject;
  let gateway: GatewayProcess;
  let mtlsUrl: string;
  let bankCount: number;
  const pki = createTestPki();
  const dataDir = mkdtempSync(join(tmpdir(), 'sdk-install-gateway-'));
  const password = { login: 'shop-pw', password: randomBytes(12).toString('hex') };
  const keyed = { login: 'acme', kid: 'acme-2026-1' };
  const certified = { login: 'shop-cert' };

  const admin = async (method: string, path: string, body: unknown) => {
    const response = await fetch(`${gateway.admin}${path}`, { method, headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json' }, body: JSON.stringify(body) });
    assert.ok(response.ok, `${method} ${path}: ${response.status} ${await response.text()}`);
  };
  const partnerEnv = (partner: { login: string }, extra: Record<string, string> = {}) => ({ GATEWAY_URL: gateway.base, PARTNER_LOGIN: partner.login, ...extra });

  before(async () => {
    project = await createPartnerProject();
    // A partner's own files: the key of step 1 of the worked example, a self-signed client certificate.
    const { privateKey, publicKey } = await generateKeyPair('ES256', { extractable: true });
    writeFileSync(join(project.dir, 'partner-key.pem'), await exportPKCS8(privateKey));
    const clientCertificate = pki.issue({ subject: '/O=Shop/CN=shop-cert' });
    writeFileSync(join(project.dir, 'partner.crt'), clientCertificate.cert);
    writeFileSync(join(project.dir, 'partner.key'), clientCertificate.key);

    const serverCa = pki.issue({ subject: '/CN=Gateway CA', extensions: pki.caExtensions });
    const server = pki.issue({ subject: '/CN=127.0.0.1', issuer: serverCa, extensions: pki.serverExtensions() });
    const tlsPort = await freePort();
    mtlsUrl = `https://127.0.0.1:${tlsPort}`;
    [gateway] = await Promise.all([
      startGatewayProcess({ DATA_DIR: dataDir, ADMIN_TOKEN, TLS_PORT: String(tlsPort), TLS_CERT_FILE: server.certPath, TLS_KEY_FILE: server.keyPath, PUBLIC_TLS_URL: mtlsUrl }),
      setUpGuideProject(project),
    ]);
    writeFileSync(join(project.dir, 'ca.pem'), serverCa.cert);
    await admin('POST', '/admin/v1/partners', { ...password, ipAllowlist: ['127.0.0.1'], rewardTypes: ['sbp'] });
    await admin('POST', '/admin/v1/partners', { login: keyed.login, password: randomBytes(12).toString('hex'), ipAllowlist: ['127.0.0.1'], rewardTypes: ['sbp'] });
    await admin('PUT', `/admin/v1/partners/${keyed.login}/jwks`, { keys: [{ ...(await exportJWK(publicKey)), kid: keyed.kid, alg: 'ES256', use: 'sig' }] });
    await admin('PATCH', `/admin/v1/partners/${keyed.login}`, { authMethods: ['private_key_jwt'], requireSenderConstrainedTokens: true });
    await admin('POST', '/admin/v1/partners', { login: certified.login, password: randomBytes(12).toString('hex'), ipAllowlist: ['127.0.0.1'], rewardTypes: ['sbp'] });
    await admin('PUT', `/admin/v1/partners/${certified.login}/certificates`, { certificates: [clientCertificate.cert] });
    await admin('PATCH', `/admin/v1/partners/${certified.login}`, { authMethods: ['self_signed_tls_client_auth'] });
    bankCount = ((await (await fetch(`${gateway.admin}/admin/v1/banks`, { headers: { authorization: `Bearer ${ADMIN_TOKEN}` } })).json()) as { banks: unknown[] }).banks.length;
  });
  after(async () => {
    if (gateway) await stopGatewayProcess(gateway, 'SIGKILL');
    project?.remove();
    pki.remove();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('installs the pair with the guide\'s command, named by the version: the client, the contract, jose and typebox, each inside the folder', () => {
    assert.equal(installCommand, `npm install ./partner-gateway-contract-${version}.tgz ./partner-gateway-client-${version}.tgz`);
    const installed = installedPackages(project.dir);
    assert.deepEqual(installed.map(({ name }) => name).sort(), ['@partner-gateway/client', '@partner-gateway/contract', 'jose', 'typebox']);
    for (const { name, path } of installed) assert.ok(!relative(project.dir, realpathSync(path)).startsWith('..'), `${name} is installed in the project, not linked elsewhere`);
  });

  it('ships packages the registry takes as they are: files, exports, types, engines, license, repository and a README each, one version', () => {
    for (const tarball of project.tarballs) {
      const manifest = JSON.parse(readFileSync(join(project.dir, 'node_modules', tarball.name, 'package.json'), 'utf8')) as Record<string, unknown>;
      for (const field of ['files', 'exports', 'engines', 'license', 'repository']) assert.ok(manifest[field], `${tarball.name} has ${field}`);
      assert.ok(manifest.types ?? manifest.typesVersions, `${tarball.name} declares its types`);
      assert.equal(manifest.version, version);
      assert.deepEqual(manifest.engines, { node: '>=20.19' });
      assert.ok(tarball.files.some(({ path }) => path === 'README.md') && tarball.files.some(({ path }) => path === 'LICENSE'), `${tarball.name} carries its README and LICENSE`);
      assert.ok(!tarball.files.some(({ path }) => /\.test\.|(^|\/)test\//.test(path)), `${tarball.name} carries no tests`);
    }
    const client = JSON.parse(readFileSync(join(project.dir, 'node_modules/@partner-gateway/client/package.json'), 'utf8')) as { dependencies: Record<string, string> };
    assert.equal(client.dependencies['@partner-gateway/contract'], version, 'the client needs the contract of its own version');
  });

  it('compiles the guide\'s TypeScript examples with the project\'s TypeScript and the guide\'s tsconfig.json, strict, the packages\' types checked', async () => {
    assert.deepEqual([...examples.keys()].sort(), ['banks-bearer.ts', 'banks-encrypted-password.ts', 'banks-webhook.ts', 'banks-with-certificate.ts', 'banks-with-dpop.ts', 'rotate-key.ts']);
    writeFileSync(join(project.dir, 'type-checks.ts'), TYPE_CHECKS);
    const compiled = await project.run('npx', ['tsc']);
    assert.equal(compiled.code, 0, compiled.stdout + compiled.stderr);
  });

  it('runs the bearer, encrypted-password, private_key_jwt + DPoP and client-certificate examples against the gateway', async () => {
    const runs: Array<[string, Record<string, string>]> = [
      ['banks-bearer.js', partnerEnv(password, { PARTNER_PASSWORD: password.password })],
      ['banks-encrypted-password.js', partnerEnv(password, { PARTNER_PASSWORD: password.password })],
      ['banks-with-dpop.js', partnerEnv(keyed, { PARTNER_KID: keyed.kid })],
      ['banks-with-certificate.js', partnerEnv(certified, { GATEWAY_MTLS_URL: mtlsUrl, NODE_EXTRA_CA_CERTS: join(project.dir, 'ca.pem') })],
    ];
    for (const [file, env] of runs) {
      const result = await project.run('node', [file], { env });
      assert.equal(result.code, 0, `${file}: ${result.stderr}`);
      assert.equal(result.stdout, `banks: ${bankCount}\n`, file);
    }
    const refused = await project.run('node', ['banks-bearer.js'], { env: partnerEnv(password, { PARTNER_PASSWORD: 'not the password' }) });
    assert.notEqual(refused.code, 0);
    assert.match(refused.stderr, /User failed authorization; access to the resource is restricted/);
  });

  it('require() works from CommonJS on this Node (20.19 or later), typed by the same declarations', async () => {
    writeFileSync(join(project.dir, 'require-check.cts'), REQUIRE_CHECK);
    const compiled = await project.run('npx', ['tsc', '--module', 'nodenext', '--strict', '--types', 'node', 'require-check.cts']);
    assert.equal(compiled.code, 0, compiled.stdout + compiled.stderr);
    const result = await project.run('node', ['require-check.cjs'], { env: partnerEnv(password, { PARTNER_PASSWORD: password.password }) });
    assert.equal(result.code, 0, result.stderr);
    assert.equal(result.stdout, `banks: ${bankCount} (/partner/provider/sbp/banks/)\n`);
  });

  it('runs the partner CLI from the installed bin: --version, --help, banks with the password, with the key and DPoP, and with the certificate', async () => {
    const cli = (args: string[], options: { env?: Record<string, string>; input?: string } = {}) => project.run('npx', ['partner-gateway-client', ...args], options);
    const printed = await cli(['--version']);
    assert.deepEqual([printed.code, printed.stdout], [0, `${version}\n`], printed.stderr);
    const help = await cli(['--help']);
    assert.match(help.stdout, /^Usage: partner-gateway-client <command>/);
    assert.match(help.stdout, /^ {2}login /m);
    assert.match(help.stdout, /^ {2}banks /m);
    const urls = ['--auth-url', gateway.base, '--api-url', gateway.base];
    const table = await cli(['banks', ...urls, '--login', password.login, '--password-stdin'], { input: password.password });
    assert.equal(table.code, 0, table.stderr);
    assert.match(table.stdout, /^BIC\s+NAME\n044/);
    assert.equal(table.stdout.trimEnd().split('\n').length, bankCount + 1);
    const encrypted = await cli(['banks', '--with-password', '--api-url', gateway.base, '--login', password.login, '--password-stdin', '--json'], { input: password.password });
    assert.equal(JSON.parse(encrypted.stdout).banks.length, bankCount, encrypted.stderr);
    const bound = await cli(['banks', ...urls, '--login', keyed.login, '--private-key', 'partner-key.pem', '--kid', keyed.kid, '--dpop', '--json']);
    assert.equal(JSON.parse(bound.stdout).banks.length, bankCount, bound.stderr);
    const certificate = await cli(['login', '--auth-url', mtlsUrl, '--login', certified.login, '--cert', 'partner.crt', '--key', 'partner.key', '--ca', 'ca.pem']);
    assert.equal(certificate.code, 0, certificate.stderr);
    assert.match(certificate.stdout, /^Logged in as shop-cert\. The Bearer access token expires at /);
    const wrong = await cli(['banks', ...urls, '--login', password.login, '--password-stdin'], { input: 'not the password' });
    assert.equal(wrong.code, 1);
    assert.match(wrong.stderr, /^Error: unauthorized \(HTTP 401\)/m);
  });
});
