import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { after, before, describe, it } from 'node:test';
import { texts } from '../../src/errors.js';
import { readClientCertificate } from '../../src/mtls/client-certificate.js';
import { freePort } from '../support/free-port.js';
import { startGatewayProcess, stopGatewayProcess, type GatewayProcess } from '../support/gateway-process.js';
import { createTestPki, type IssuedCertificate } from '../support/openssl-certificates.js';
import { call, jwtClaims, type CallOptions } from './mtls-client.js';
import { PartnerApiError, PartnerClient } from '@partner-gateway/client';
import { runCli } from '../../src/cli/run-cli.js';
import { cliHarness } from '../support/cli-harness.js';
import { waitFor } from '../support/wait-for.js';

// RFC 8705 end to end, over real TLS connections to the gateway as operators run it (src/main.ts, its own process):
// certificates made by openssl, the HTTPS listener from TLS_PORT, TLS_CLIENT_CA_FILE for CA-issued certificates, and
// the proxy path (CLIENT_CERT_HEADER from TRUST_PROXY; 127.0.0.2 plays the proxy on Linux's loopback).
const DAY = 86_400_000;
const HEADER = 'X-Client-Cert';
const PROXY = '127.0.0.2';
const ADMIN_TOKEN = randomBytes(24).toString('hex');
const pki = createTestPki();
const serverCa = pki.issue({ subject: '/CN=Server CA', extensions: pki.caExtensions });
const serverCert = pki.issue({ subject: '/CN=127.0.0.1', issuer: serverCa, extensions: pki.serverExtensions() });
const clientCa = pki.issue({ subject: '/O=Partner CA/CN=Client CA', extensions: pki.caExtensions });
const otherCa = pki.issue({ subject: '/O=Elsewhere/CN=Other CA', extensions: pki.caExtensions });
const selfSigned = pki.issue({ subject: '/O=Acme/CN=acme-self', notAfter: new Date(Date.now() + 90 * DAY) });
const anotherSelfSigned = pki.issue({ subject: '/O=Acme/CN=acme-self' });
const caIssued = pki.issue({ subject: '/C=RU/O=Acme/CN=acme-ca', issuer: clientCa, notAfter: new Date(Date.now() + 90 * DAY) });
const expiredCaIssued = pki.issue({ subject: '/C=RU/O=Acme/CN=acme-ca', issuer: clientCa, notBefore: new Date(Date.now() - 60 * DAY), notAfter: new Date(Date.now() - DAY) });
const sameSubjectOtherCa = pki.issue({ subject: '/C=RU/O=Acme/CN=acme-ca', issuer: otherCa });
const soonExpiring = pki.issue({ subject: '/CN=soon', notAfter: new Date(Date.now() + 10 * DAY) });
const dataDir = mkdtempSync(join(tmpdir(), 'gw-rfc8705-'));
// A copy the last test replaces (SIGHUP): TLS_CLIENT_CA_FILE is read again, and tls_client_auth follows.
const clientCaFile = pki.write('client-ca.pem', clientCa.cert);

let gateway: GatewayProcess;
let tlsBase = '';
const selfLogin = 'acme-self';
const caLogin = 'acme-ca';
const banksPath = '/partner/provider/sbp/banks/';

const tls = (path: string, options: CallOptions & { as?: IssuedCertificate } = {}) =>
  call(`${tlsBase}${path}`, { ca: serverCa.cert, ...(options.as ? { client: { cert: options.as.cert, key: options.as.key } } : {}), ...options });
const plain = (path: string, options: CallOptions = {}) => call(`${gateway.base}${path}`, options);
const admin = async (method: string, path: string, json?: unknown) => {
  const response = await fetch(`${gateway.admin}${path}`, {
    method,
    headers: { authorization: `Bearer ${ADMIN_TOKEN}`, ...(json === undefined ? {} : { 'content-type': 'application/json' }) },
    ...(json === undefined ? {} : { body: JSON.stringify(json) }),
  });
  assert.ok(response.ok, `${method} ${path}: ${response.status} ${await response.clone().text()}`);
  return response;
};
const tokenRequest = (login: string) => ({ form: { grant_type: 'client_credentials', client_id: login } });
const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
const viaHeader = (certificate: IssuedCertificate) => ({ [HEADER]: encodeURIComponent(certificate.cert) });

async function addPartner(login: string, authMethods: string[], certificates: { certificates: string[] } | { subjectDn: string }): Promise<void> {
  await admin('POST', '/admin/v1/partners', { login, password: `${login}-unused-password`, ipAllowlist: ['127.0.0.0/8'], rewardTypes: ['sbp'] });
  await admin('PATCH', `/admin/v1/partners/${login}`, { authMethods });
  await admin('PUT', `/admin/v1/partners/${login}/certificates`, certificates);
}

function assertSeedRefusal(answer: { status: number; json: any; headers: Record<string, unknown> }, message: string): void {
  assert.equal(answer.status, 401, message);
  assert.equal(answer.json.description_status, texts.unauthorized, message);
  assert.equal(answer.headers['www-authenticate'], 'Bearer error="invalid_token"', message);
}

before(async () => {
  const tlsPort = await freePort();
  gateway = await startGatewayProcess({
    DATA_DIR: dataDir,
    ADMIN_TOKEN,
    TLS_PORT: String(tlsPort),
    TLS_CERT_FILE: serverCert.certPath,
    TLS_KEY_FILE: serverCert.keyPath,
    TLS_CLIENT_CA_FILE: clientCaFile,
    TRUST_PROXY: PROXY,
    CLIENT_CERT_HEADER: HEADER,
    // Refusals are counted by the brute-force defence (cheap failures of the address); this suite makes many on purpose.
    THROTTLE_MAX_FAILURES: '1000',
  });
  tlsBase = `https://127.0.0.1:${tlsPort}`;
  await addPartner(selfLogin, ['self_signed_tls_client_auth'], { certificates: [selfSigned.cert, soonExpiring.cert] });
  await addPartner(caLogin, ['tls_client_auth'], { subjectDn: 'CN=acme-ca, O=Acme, C=RU' });
});
after(async () => {
  if (gateway) await stopGatewayProcess(gateway, 'SIGKILL');
  rmSync(dataDir, { recursive: true, force: true });
  pki.remove();
});

describe('certificate-bound tokens over real TLS (RFC 8705)', () => {
  for (const [name, login, certificate] of [
    ['a registered self-signed certificate (self_signed_tls_client_auth)', selfLogin, selfSigned],
    ['a certificate issued by TLS_CLIENT_CA_FILE to the subject DN (tls_client_auth)', caLogin, caIssued],
  ] as const) {
    it(`${name} gets a Bearer token bound to it, and uses it for banks over the same certificate`, async () => {
      const token = await tls('/api/v1/oauth/token', { ...tokenRequest(login), as: certificate });
      assert.equal(token.status, 200, token.text);
      assert.equal(token.json.token_type, 'Bearer');
      const thumbprint = readClientCertificate(certificate.cert).thumbprint;
      assert.deepEqual(jwtClaims(token.json.access_token).cnf, { 'x5t#S256': thumbprint });
      const banks = await tls(banksPath, { method: 'POST', headers: bearer(token.json.access_token), as: certificate });
      assert.equal(banks.status, 200, banks.text);
      assert.ok(banks.json.banks.length > 0);
      const introspected = await tls('/api/v1/oauth/introspect', { form: { client_id: login, token: token.json.access_token }, as: certificate });
      assert.equal(introspected.status, 200, introspected.text);
      assert.deepEqual([introspected.json.active, introspected.json.token_type, introspected.json.cnf], [true, 'Bearer', { 'x5t#S256': thumbprint }]);
    });
  }

  it('refuses another certificate, no certificate, an expired one, and the right subject from another CA (invalid_client)', async () => {
    const cases: Array<[string, string, IssuedCertificate | undefined]> = [
      ['another self-signed certificate with the same subject', selfLogin, anotherSelfSigned],
      ['no certificate', selfLogin, undefined],
      ['no certificate (CA partner)', caLogin, undefined],
      ['an expired CA-issued certificate', caLogin, expiredCaIssued],
      ['the right subject from another CA', caLogin, sameSubjectOtherCa],
      ['the self-signed partner’s certificate for the CA partner', caLogin, selfSigned],
    ];
    for (const [what, login, certificate] of cases) {
      const answer = await tls('/api/v1/oauth/token', { ...tokenRequest(login), ...(certificate ? { as: certificate } : {}) });
      assert.equal(answer.status, 401, what);
      assert.equal(answer.json.error, 'invalid_client', what);
      assert.equal(answer.json.description_status, texts.unauthorized, what);
    }
  });

  it('refuses a method the partner is not allowed, though its certificate is right', async () => {
    await admin('PATCH', `/admin/v1/partners/${selfLogin}`, { authMethods: ['tls_client_auth'] });
    try {
      const answer = await tls('/api/v1/oauth/token', { ...tokenRequest(selfLogin), as: selfSigned });
      assert.deepEqual([answer.status, answer.json.error], [401, 'invalid_client']);
    } finally {
      await admin('PATCH', `/admin/v1/partners/${selfLogin}`, { authMethods: ['self_signed_tls_client_auth'] });
    }
  });

  it('refuses a bound token over plain HTTP, without a certificate and with another one: banks, introspection, revocation, logout', async () => {
    const token = (await tls('/api/v1/oauth/token', { ...tokenRequest(selfLogin), as: selfSigned })).json.access_token as string;
    assertSeedRefusal(await plain(banksPath, { method: 'POST', headers: bearer(token) }), 'banks over plain HTTP');
    assertSeedRefusal(await tls(banksPath, { method: 'POST', headers: bearer(token) }), 'banks over TLS without a certificate');
    assertSeedRefusal(await tls(banksPath, { method: 'POST', headers: bearer(token), as: anotherSelfSigned }), 'banks with another certificate');
    assertSeedRefusal(await plain('/api/v1/logout/', { method: 'POST', headers: bearer(token) }), 'logout over plain HTTP');
    // The CA partner authenticates with its own certificate: the self-signed partner's token is not its own anyway.
    const other = await tls('/api/v1/oauth/introspect', { form: { client_id: caLogin, token }, as: caIssued });
    assert.deepEqual(other.json, { active: false });
    const withoutCertificate = await tls('/api/v1/oauth/revoke', { form: { client_id: selfLogin, token }, as: anotherSelfSigned });
    assert.equal(withoutCertificate.status, 401, 'revocation needs the client authenticated (by the registered certificate)');
    assert.equal((await tls(banksPath, { method: 'POST', headers: bearer(token), as: selfSigned })).status, 200, 'nothing of that revoked it');
    const revoked = await tls('/api/v1/oauth/revoke', { form: { client_id: selfLogin, token }, as: selfSigned });
    assert.equal(revoked.status, 200);
    assertSeedRefusal(await tls(banksPath, { method: 'POST', headers: bearer(token), as: selfSigned }), 'a revoked token');
  });

  it('takes the certificate from the trusted proxy’s header, and ignores the header from any other address', async () => {
    const fromProxy = await plain('/api/v1/oauth/token', { ...tokenRequest(caLogin), headers: viaHeader(caIssued), localAddress: PROXY });
    assert.equal(fromProxy.status, 200, fromProxy.text);
    const token = fromProxy.json.access_token as string;
    assert.equal(jwtClaims(token).cnf['x5t#S256'], readClientCertificate(caIssued.cert).thumbprint);
    const banks = await plain(banksPath, { method: 'POST', headers: { ...bearer(token), ...viaHeader(caIssued) }, localAddress: PROXY });
    assert.equal(banks.status, 200, banks.text);
    assertSeedRefusal(await plain(banksPath, { method: 'POST', headers: bearer(token), localAddress: PROXY }), 'from the proxy without the header');
    assertSeedRefusal(await plain(banksPath, { method: 'POST', headers: { ...bearer(token), ...viaHeader(caIssued) } }), 'the header from an untrusted address');
    const untrusted = await plain('/api/v1/oauth/token', { ...tokenRequest(caLogin), headers: viaHeader(caIssued) });
    assert.deepEqual([untrusted.status, untrusted.json.error], [401, 'invalid_client'], 'the header from an untrusted address gets no token');
    assert.match(gateway.output(), /untrusted_client_certificate_header/);
  });

  it('advertises RFC 8705 in the metadata document, with the HTTPS listener as mtls_endpoint_aliases', async () => {
    const metadata = (await plain('/.well-known/oauth-authorization-server')).json;
    assert.equal(metadata.tls_client_certificate_bound_access_tokens, true);
    for (const member of ['token_endpoint_auth_methods_supported', 'introspection_endpoint_auth_methods_supported', 'revocation_endpoint_auth_methods_supported']) {
      assert.ok(metadata[member].includes('self_signed_tls_client_auth') && metadata[member].includes('tls_client_auth'), member);
    }
    assert.deepEqual(metadata.mtls_endpoint_aliases, {
      token_endpoint: `${tlsBase}/api/v1/oauth/token`,
      introspection_endpoint: `${tlsBase}/api/v1/oauth/introspect`,
      revocation_endpoint: `${tlsBase}/api/v1/oauth/revoke`,
    });
  });

  it('counts the registered certificates expiring within 30 days in /metrics', async () => {
    const text = await (await admin('GET', '/metrics')).text();
    assert.match(text, /^partner_gateway_partner_certificates_expiring 1$/m);
  });

  it('interoperates with curl --cert/--key: a token, then the bank list', async () => {
    const run = promisify(execFile);
    const tls = ['--silent', '--show-error', '--cacert', serverCa.certPath, '--cert', caIssued.certPath, '--key', caIssued.keyPath];
    const { stdout: tokenText } = await run('curl', [...tls, '--data-urlencode', 'grant_type=client_credentials', '--data-urlencode', `client_id=${caLogin}`, `${tlsBase}/api/v1/oauth/token`]);
    const token = JSON.parse(tokenText).access_token as string;
    assert.ok(token, tokenText);
    const { stdout: banksText } = await run('curl', [...tls, '-X', 'POST', '-H', `Authorization: Bearer ${token}`, `${tlsBase}${banksPath}`]);
    assert.ok(JSON.parse(banksText).banks.length > 0, banksText);
  });

  it('interoperates with Python (/usr/bin/python3, the ssl standard library): a token, then the bank list', async () => {
    const { stdout } = await promisify(execFile)('/usr/bin/python3', [
      join(import.meta.dirname, 'python_mtls_client.py'),
      tlsBase,
      selfLogin,
      selfSigned.certPath,
      selfSigned.keyPath,
      serverCa.certPath,
    ]);
    const answer = JSON.parse(stdout);
    assert.equal(answer.token_type, 'Bearer');
    assert.ok(answer.banks > 0, stdout);
  });

  it('the SDK with tls and auth.tlsClientAuth gets a certificate-bound token and the bank list, and is refused with an unregistered certificate', async () => {
    const sdk = (certificate: IssuedCertificate) =>
      new PartnerClient({ authUrl: tlsBase, apiUrl: tlsBase, login: selfLogin, auth: { tlsClientAuth: true }, tls: { cert: certificate.cert, key: certificate.key, ca: serverCa.cert }, retries: 0 });
    const client = sdk(selfSigned);
    const { accessToken, tokenType } = await client.login();
    assert.equal(tokenType, 'Bearer');
    assert.deepEqual(jwtClaims(accessToken).cnf, { 'x5t#S256': readClientCertificate(selfSigned.cert).thumbprint });
    assert.ok((await client.banks()).length > 0);
    await assert.rejects(sdk(anotherSelfSigned).banks(), (error: PartnerApiError) => error.kind === 'unauthorized' && error.status === 401);
  });

  it('the partner CLI with --cert and --key alone gets a certificate-bound token and lists the banks', async () => {
    const run = async (args: string[]) => {
      const { io, stdout, stderr } = cliHarness({});
      const code = await runCli(['client', ...args, '--auth-url', tlsBase, '--api-url', tlsBase, '--login', selfLogin, '--ca', serverCa.certPath], io);
      return { code, out: stdout(), err: stderr() };
    };
    const banks = await run(['banks', '--cert', selfSigned.certPath, '--key', selfSigned.keyPath, '--json']);
    assert.equal(banks.code, 0, banks.err);
    assert.ok(JSON.parse(banks.out).banks.length > 0);
    const refused = await run(['banks', '--cert', anotherSelfSigned.certPath, '--key', anotherSelfSigned.keyPath]);
    assert.equal(refused.code, 1);
    assert.match(refused.err, /unauthorized \(HTTP 401\)/);
    assert.doesNotMatch(refused.err, /PRIVATE KEY/);
    assert.equal((await run(['banks', '--cert', selfSigned.certPath])).code, 2, '--cert without --key is a usage error');
  });

  // Last: it changes the CAs for the rest of the suite.
  it('checks tls_client_auth against the CAs of TLS_CLIENT_CA_FILE as re-read on SIGHUP, from the next request', async () => {
    copyFileSync(otherCa.certPath, clientCaFile);
    gateway.process.kill('SIGHUP');
    await waitFor(async () => (await tls('/api/v1/oauth/token', { ...tokenRequest(caLogin), as: sameSubjectOtherCa })).status === 200, { message: 'a certificate of the new CA to be accepted' });
    assert.equal((await tls('/api/v1/oauth/token', { ...tokenRequest(caLogin), as: caIssued })).status, 401, 'one of the CA no longer trusted is not');
  });
});
