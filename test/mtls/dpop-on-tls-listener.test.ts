import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { texts } from '../../src/errors.js';
import { REQUEST_TIMEOUTS } from '../../src/http/app.js';
import { clientErrorHandler } from '../../src/http/plugins/error-handler.js';
import { loadTlsFiles } from '../../src/mtls/tls-files.js';
import { startTlsListener, type TlsListener } from '../../src/mtls/tls-listener.js';
import { freePort } from '../support/free-port.js';
import { startListeningGateway } from '../support/key-partner.js';
import { CLIENT_ASSERTION_TYPE, clientAssertion, dpopProof, registerKeys, testKey, type TestKey } from '../support/oauth-client.js';
import { createTestPki } from '../support/openssl-certificates.js';
import { testBackends } from '../support/test-databases.js';
import type { TestGateway } from '../support/test-gateway.js';
import { waitFor } from '../support/wait-for.js';
import { call, jwtClaims } from './mtls-client.js';

// Issue 26, finding 4: on the mutual-TLS listener (TLS_PORT), a DPoP proof names that listener's URL (the RFC 8705
// mtls_endpoint_aliases address), as RFC 9449 requires, and not the plain listener's; over real TLS connections with
// a client certificate, at the token endpoint and at banks.

const TOKEN_PATH = '/api/v1/oauth/token';
const BANKS_PATH = '/partner/provider/sbp/banks/';
const pki = createTestPki();
const serverCa = pki.issue({ subject: '/CN=Server CA', extensions: pki.caExtensions });
const serverCert = pki.issue({ subject: '/CN=127.0.0.1', issuer: serverCa, extensions: pki.serverExtensions() });
const clientCert = pki.issue({ subject: '/O=Acme/CN=acme-dpop' });
after(() => pki.remove());

for (const backend of testBackends()) {
  describe(`DPoP proofs on the mutual-TLS listener, on ${backend.name}`, () => {
    let t: TestGateway & { url: string };
    let tls: TlsListener;
    let tlsUrl = '';
    let login = '';
    let key: TestKey;
    before(async () => {
      const tlsPort = await freePort();
      t = await startListeningGateway(backend, { env: { TLS_PORT: String(tlsPort), TLS_CERT_FILE: serverCert.certPath, TLS_KEY_FILE: serverCert.keyPath } });
      tls = await startTlsListener({ app: t.app, files: loadTlsFiles({ certFile: serverCert.certPath, keyFile: serverCert.keyPath }), host: '127.0.0.1', port: tlsPort, logger: t.app.log as never, timeouts: REQUEST_TIMEOUTS, onClientError: clientErrorHandler });
      tlsUrl = `https://127.0.0.1:${tls.port}`;
      login = (await t.addPartner()).login;
      key = await testKey();
      await registerKeys(t.gateway, login, [key]);
      await t.gateway.admin.partners.update(login, { authMethods: ['private_key_jwt', 'self_signed_tls_client_auth'] });
      await t.gateway.admin.partnerCertificates.set(login, { certificates: [clientCert.cert] });
    });
    after(async () => {
      await tls?.close();
      await t?.close();
    });

    const overTls = (path: string, options: Parameters<typeof call>[1] = {}) =>
      call(tlsUrl + path, { ca: serverCa.cert, client: { cert: clientCert.cert, key: clientCert.key }, ...options });
    const certificateToken = (proof: string) => overTls(TOKEN_PATH, { form: { grant_type: 'client_credentials', client_id: login }, headers: { dpop: proof } });

    it('when the metadata names the mTLS alias, then a proof naming it gets a token bound to both the certificate and the DPoP key', async () => {
      const metadata = (await (await fetch(`${t.url}/.well-known/oauth-authorization-server`)).json()) as { mtls_endpoint_aliases: { token_endpoint: string } };
      assert.equal(metadata.mtls_endpoint_aliases.token_endpoint, tlsUrl + TOKEN_PATH);
      const dpopKey = await testKey();
      const issued = await certificateToken(await dpopProof(dpopKey, 'POST', metadata.mtls_endpoint_aliases.token_endpoint));
      assert.equal(issued.status, 200, issued.text);
      assert.equal(issued.json.token_type, 'DPoP');
      assert.deepEqual(Object.keys(jwtClaims(issued.json.access_token).cnf).sort(), ['jkt', 'x5t#S256']);

      const token = issued.json.access_token as string;
      const banks = await overTls(BANKS_PATH, { method: 'POST', headers: { authorization: `DPoP ${token}`, dpop: await dpopProof(dpopKey, 'POST', tlsUrl + BANKS_PATH, { accessToken: token }) } });
      assert.equal(banks.status, 200, banks.text);
      assert.ok(banks.json.banks.length > 0);
    });

    it('when a proof on the mTLS listener names the plain listener\'s URL, then the token endpoint refuses it (400) and names the URL it expects', async () => {
      const answer = await certificateToken(await dpopProof(await testKey(), 'POST', t.url + TOKEN_PATH));
      assert.equal(answer.status, 400);
      assert.equal(answer.json.error, 'invalid_dpop_proof');
      assert.equal(answer.json.error_description, `The DPoP proof's htu must be ${tlsUrl + TOKEN_PATH}, this request's URL without query or fragment`);
    });

    it('when a banks call on the mTLS listener carries a proof naming the plain URL, then it gets the seed\'s 401 (dpop_htu_mismatch)', async () => {
      const dpopKey = await testKey();
      const token = (await certificateToken(await dpopProof(dpopKey, 'POST', tlsUrl + TOKEN_PATH))).json.access_token as string;
      const banks = await overTls(BANKS_PATH, { method: 'POST', headers: { authorization: `DPoP ${token}`, dpop: await dpopProof(dpopKey, 'POST', t.url + BANKS_PATH, { accessToken: token }) } });
      assert.equal(banks.status, 401);
      assert.deepEqual(banks.json, { description_status: texts.unauthorized });
      assert.match(String(banks.headers['www-authenticate']), /^DPoP error="invalid_dpop_proof", error_description="The DPoP proof's htu must be https:/);
      // The only banks call refused in this suite (an earlier one that succeeded may share its millisecond); its entry
      // is written once the answer has gone, which the client may see first.
      const refused = await waitFor(async () => {
        await t.gateway.admin.audit.flush();
        const entries = (await t.gateway.admin.audit.query({ action: 'banks' } as never)).filter((entry) => entry.outcome === 'failure');
        return entries.length > 0 ? entries : undefined;
      }, { message: "the refused banks call's audit entry" });
      assert.deepEqual(refused.map((entry) => entry.reason), ['dpop_htu_mismatch']);
    });

    it('when a private_key_jwt client calls the mTLS listener, then its proof names that listener too, and the plain listener still takes its own URL only', async () => {
      const form = async () => ({ grant_type: 'client_credentials', client_assertion_type: CLIENT_ASSERTION_TYPE, client_assertion: await clientAssertion(key, login, t.url) });
      const dpopKey = await testKey();
      const viaTls = await overTls(TOKEN_PATH, { form: await form(), headers: { dpop: await dpopProof(dpopKey, 'POST', tlsUrl + TOKEN_PATH) } });
      assert.equal(viaTls.status, 200, viaTls.text);
      const plain = await call(t.url + TOKEN_PATH, { form: await form(), headers: { dpop: await dpopProof(dpopKey, 'POST', tlsUrl + TOKEN_PATH) } });
      assert.equal(plain.status, 400);
      assert.equal(plain.json.error, 'invalid_dpop_proof');
      const ok = await call(t.url + TOKEN_PATH, { form: await form(), headers: { dpop: await dpopProof(dpopKey, 'POST', t.url + TOKEN_PATH) } });
      assert.equal(ok.status, 200, ok.text);
    });
  });

  describe(`DPoP proofs behind a proxy that terminates the mutual-TLS alias, on ${backend.name}`, () => {
    let t: TestGateway & { url: string };
    let login = '';
    let key: TestKey;
    const alias = 'https://mtls.gateway.test:8443';
    before(async () => {
      t = await startListeningGateway(backend, { env: { PUBLIC_TLS_URL: alias } });
      login = (await t.addPartner()).login;
      key = await testKey();
      await registerKeys(t.gateway, login, [key]);
    });
    after(() => t.close());

    it('when PUBLIC_TLS_URL is set without TLS_PORT, then the plain listener takes a proof naming either address, and no other', async () => {
      const token = async (htu: string) =>
        call(t.url + TOKEN_PATH, {
          form: { grant_type: 'client_credentials', client_assertion_type: CLIENT_ASSERTION_TYPE, client_assertion: await clientAssertion(key, login, t.url) },
          headers: { dpop: await dpopProof(await testKey(), 'POST', htu) },
        });
      assert.equal((await token(alias + TOKEN_PATH)).status, 200);
      assert.equal((await token(t.url + TOKEN_PATH)).status, 200);
      const elsewhere = await token(`https://elsewhere.test${TOKEN_PATH}`);
      assert.equal(elsewhere.status, 400);
      assert.equal(elsewhere.json.error_description, `The DPoP proof's htu must be ${t.url + TOKEN_PATH} or ${alias + TOKEN_PATH}, this request's URL without query or fragment`);
    });
  });
}
