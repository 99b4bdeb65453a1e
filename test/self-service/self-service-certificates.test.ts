import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { SELF_CERTIFICATES_PATH, SELF_WEBHOOKS_PATH } from '@partner-gateway/contract/paths';
import type { RotateCertificateResponse, SelfCertificatesResponse } from '@partner-gateway/contract/self-service-certificates';
import type { CredentialExpiringEvent } from '@partner-gateway/contract/webhook-events';
import { FORM_HEADERS, form } from '../support/oauth-client.js';
import { createTestPki } from '../support/openssl-certificates.js';
import { startListeningGateway } from '../support/key-partner.js';
import { selfServiceCaller, selfServicePartner } from '../support/self-service-caller.js';
import { testBackends } from '../support/test-databases.js';
import { TEST_ADMIN_TOKEN, type TestGateway } from '../support/test-gateway.js';
import { waitFor } from '../support/wait-for.js';
import { receiver } from '../support/webhook-receiver.js';

// Issue 37: a partner rotates its own client certificate (self_signed_tls_client_auth) with an overlap window that
// ends on time (a controlled clock), over HTTP with the certificate in a trusted proxy's header; what is refused and
// leaves the certificates as they were; and the retiring certificate announced by credential.expiring.

const HEADER = 'x-client-cert';
const HOUR = 3600_000;
const DAY = 24 * HOUR;
const pki = createTestPki();
after(() => pki.remove());

for (const backend of testBackends()) {
  describe(`self-service certificate rotation on ${backend.name}`, () => {
    let t: TestGateway & { url: string };
    let clock = Date.now();
    let caller: ReturnType<typeof selfServiceCaller>;
    const hooks = receiver();
    let hookUrl: string;
    before(async () => {
      t = await startListeningGateway(backend, { now: () => clock, env: { TRUST_PROXY: '127.0.0.1', CLIENT_CERT_HEADER: HEADER, WEBHOOK_POLL_MS: '50', WEBHOOK_RETRY_BASE_MS: '20' } });
      caller = selfServiceCaller(t.url, () => clock);
      hookUrl = await hooks.listen();
    });
    after(async () => {
      await t.close();
      await hooks.close();
    });

    const certificate = (days = 30) => pki.issue({ subject: '/O=Acme/CN=acme-payouts', notAfter: new Date(Date.now() + days * DAY) });
    /** A partner on certificates alone, holding `cert`. */
    const certificatePartner = async (cert: string) => {
      const partner = await t.addPartner({ ipAllowlist: ['127.0.0.0/8'] });
      await t.gateway.admin.partners.update(partner.login, { authMethods: ['self_signed_tls_client_auth'] });
      await t.gateway.admin.partnerCertificates.set(partner.login, { certificates: [cert] });
      return partner.login;
    };
    const tokenRequest = (login: string, cert: string, scope?: string) =>
      fetch(`${t.url}/api/v1/oauth/token`, {
        method: 'POST',
        headers: { ...FORM_HEADERS, [HEADER]: encodeURIComponent(cert) },
        body: form({ grant_type: 'client_credentials', client_id: login, ...(scope ? { scope } : {}) }),
      });
    /** A token of scope self, bound to `cert` (its x5t#S256): enough for a change. */
    const selfToken = async (login: string, cert: string) => {
      const response = await tokenRequest(login, cert, 'self');
      assert.equal(response.status, 200, await response.clone().text());
      return ((await response.json()) as { access_token: string }).access_token;
    };
    const withCertificate = (token: string, cert: string, method: 'GET' | 'POST', body?: unknown) =>
      fetch(`${t.url}${SELF_CERTIFICATES_PATH}`, {
        method,
        headers: { authorization: `Bearer ${token}`, [HEADER]: encodeURIComponent(cert), ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
    const metric = async (name: string) => {
      const text = (await t.admin.inject({ method: 'GET', url: '/metrics', headers: { authorization: `Bearer ${TEST_ADMIN_TOKEN}` } })).body;
      return Number(new RegExp(`^${name} (\\d+)$`, 'm').exec(text)?.[1] ?? Number.NaN);
    };

    it('when a partner rotates its certificate with a one-hour overlap, then the old certificate takes tokens until the hour ends, the new one at once, and the old one is refused after', async () => {
      // The old one ends within the gauge's 30 days, the new one after them.
      const old = certificate(20);
      const next = certificate(90);
      const login = await certificatePartner(old.cert);
      const token = await selfToken(login, old.cert);
      const listed = (await (await withCertificate(token, old.cert, 'GET')).json()) as SelfCertificatesResponse;
      assert.equal(listed.certificates.length, 1);
      const oldThumbprint = listed.certificates[0]!.thumbprint;
      assert.equal(listed.certificates[0]!.retiresAt, undefined);
      const expiringBefore = await metric('partner_gateway_partner_certificates_expiring');

      const rotated = await withCertificate(token, old.cert, 'POST', { certificate: next.cert, overlapSeconds: 3600 });
      assert.equal(rotated.status, 200, await rotated.clone().text());
      const answer = (await rotated.json()) as RotateCertificateResponse;
      const retiring = answer.certificates.find((each) => each.thumbprint === oldThumbprint)!;
      assert.equal(Date.parse(retiring.retiresAt!), clock + HOUR);
      assert.equal(answer.certificates.find((each) => each.thumbprint === answer.added)!.retiresAt, undefined);
      assert.equal(await metric('partner_gateway_partner_certificates_expiring'), expiringBefore - 1, 'a certificate being replaced needs no operator chasing it');

      // The operator re-sending the list keeps the partner's end: a retiring certificate does not become permanent.
      await t.gateway.admin.partnerCertificates.set(login, { certificates: [old.cert, next.cert] });
      const view = (await t.admin.inject({ method: 'GET', url: `/admin/v1/partners/${login}`, headers: { authorization: `Bearer ${TEST_ADMIN_TOKEN}` } })).json() as {
        certificates: { certificates: Array<{ thumbprint: string; retiresAt?: string }> };
      };
      assert.equal(view.certificates.certificates.find((each) => each.thumbprint === oldThumbprint)?.retiresAt, retiring.retiresAt);

      // The token taken before the rotation still works: no session ended.
      assert.equal((await withCertificate(token, old.cert, 'GET')).status, 200);
      const start = clock;
      for (const offset of [0, 30 * 60_000, HOUR - 1000]) {
        clock = start + offset;
        assert.equal((await tokenRequest(login, old.cert)).status, 200, `old certificate at +${offset / 1000} s`);
        assert.equal((await tokenRequest(login, next.cert)).status, 200, `new certificate at +${offset / 1000} s`);
      }
      clock = start + HOUR + 1000;
      const refused = await tokenRequest(login, old.cert);
      assert.equal(refused.status, 401, 'the old certificate after the window');
      assert.equal(((await refused.json()) as { error: string }).error, 'invalid_client');
      assert.equal((await tokenRequest(login, next.cert)).status, 200);
      const now = (await (await withCertificate(await selfToken(login, next.cert), next.cert, 'GET')).json()) as SelfCertificatesResponse;
      assert.deepEqual(now.certificates.map((each) => each.thumbprint), [answer.added]);

      // The trail keeps thumbprints and the end, never a PEM.
      await t.gateway.admin.audit.flush();
      const [entry] = await t.gateway.admin.audit.query({ partner: login, action: 'self.certificates.rotate', limit: 5 });
      assert.equal(entry?.details?.added, answer.added);
      assert.doesNotMatch(JSON.stringify(entry), /BEGIN CERTIFICATE/);
      clock = Date.now();
    });

    it('when a partner rotates its certificate asking to end its sessions, then the token bound to the old certificate is refused at once', async () => {
      const old = certificate();
      const next = certificate();
      const login = await certificatePartner(old.cert);
      const token = await selfToken(login, old.cert);
      const rotated = await withCertificate(token, old.cert, 'POST', { certificate: next.cert, overlapSeconds: 600, endSessions: true });
      assert.equal(rotated.status, 200, await rotated.clone().text());
      assert.equal((await withCertificate(token, old.cert, 'GET')).status, 401, 'the token from before the rotation');
      assert.equal((await tokenRequest(login, old.cert)).status, 200, 'the old certificate still takes new tokens for its overlap');
    });

    it('when a rotation sends a private key, no certificate, an expired or a registered certificate, or comes with an unbound token, then it is refused and the certificates stay as they were', async () => {
      const partner = await selfServicePartner(t, caller);
      const first = certificate();
      const as = (body: unknown) => caller.call(partner.token, 'POST', SELF_CERTIFICATES_PATH, body, partner.dpopKey);
      // A key partner registers its first certificate with its DPoP-bound token.
      assert.equal((await as({ certificate: first.cert })).status, 200);

      const leaked = await as({ certificate: `${certificate().cert}${first.key}` });
      assert.equal(leaked.status, 422);
      const leakedText = await leaked.text();
      assert.match(leakedText, /private key/);
      assert.ok(!leakedText.includes(first.key.split('\n')[1]!), 'the key is never echoed');
      for (const [body, status, pattern] of [
        [{ certificate: 'not a certificate' }, 422, /certificate/],
        [{ certificate: pki.issue({ subject: '/CN=old', notBefore: new Date(Date.now() - 3 * DAY), notAfter: new Date(Date.now() - DAY) }).cert }, 422, /expired/],
        [{ certificate: first.cert }, 409, /already registered/],
        [{ certificate: first.cert, overlapSeconds: 31 * 86_400 }, 422, /overlapSeconds/],
      ] as const) {
        const response = await as(body);
        assert.equal(response.status, status, await response.clone().text());
        assert.match(await response.text(), pattern);
      }
      const unbound = await caller.call(await caller.token(partner.login, partner.key), 'POST', SELF_CERTIFICATES_PATH, { certificate: certificate().cert });
      assert.equal(unbound.status, 403);
      assert.match(((await unbound.json()) as { description_status: string }).description_status, /bound/);

      const listed = (await (await caller.call(partner.token, 'GET', SELF_CERTIFICATES_PATH, undefined, partner.dpopKey)).json()) as SelfCertificatesResponse;
      assert.equal(listed.certificates.length, 1);
      assert.equal(listed.certificates[0]!.retiresAt, undefined);
    });

    it("when a rotation retires a certificate in an hour, then the partner's endpoint gets credential.expiring for it with the rotation's end, though its notAfter is a month away", async () => {
      const partner = await selfServicePartner(t, caller);
      const created = await caller.call(partner.token, 'POST', SELF_WEBHOOKS_PATH, { url: `${hookUrl}?partner=${partner.login}` }, partner.dpopKey);
      assert.equal(created.status, 201);
      const first = certificate();
      const registered = (await (await caller.call(partner.token, 'POST', SELF_CERTIFICATES_PATH, { certificate: first.cert }, partner.dpopKey)).json()) as RotateCertificateResponse;
      const rotated = (await (await caller.call(partner.token, 'POST', SELF_CERTIFICATES_PATH, { certificate: certificate().cert, overlapSeconds: 3600 }, partner.dpopKey)).json()) as RotateCertificateResponse;
      const retiresAt = rotated.certificates.find((each) => each.thumbprint === registered.added)!.retiresAt;
      // The dispatcher looks for ending credentials at most once a minute: a minute passes on the gateway's clock.
      clock += 61_000;
      const event = await waitFor(() => {
        const request = hooks.requests.find((each) => each.url === `/hooks?partner=${partner.login}`);
        return request && (JSON.parse(request.body) as CredentialExpiringEvent);
      });
      assert.deepEqual(event.data, { credential: 'certificate', id: registered.added, expiresAt: retiresAt });
    });
  });
}
