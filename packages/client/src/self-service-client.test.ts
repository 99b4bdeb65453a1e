import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { addKeyPartner, partnerKey, startListeningGateway } from '../../../test/support/key-partner.js';
import { createTestPki } from '../../../test/support/openssl-certificates.js';
import { testBackends } from '../../../test/support/test-databases.js';
import type { TestGateway } from '../../../test/support/test-gateway.js';
import { PartnerApiError } from './partner-api-error.js';
import { PartnerClient } from './partner-client.js';
import { testClient } from '../test/test-client.js';

const SELF = '/api/v1/self/';
const TOKEN = '/api/v1/oauth/token';
const pki = createTestPki();
after(() => pki.remove());

for (const backend of testBackends()) {
  describe(`client.self against a listening gateway on ${backend.name}`, () => {
    let t: TestGateway & { url: string };
    before(async () => {
      t = await startListeningGateway(backend);
    });
    after(() => t.close());

    it('when a partner invites a person through the SDK, then the link is a single-use portal link, the person is listed as pending, and the last admin cannot be removed', async () => {
      const partner = await addKeyPartner(t);
      const { client } = testClient(t.url, { login: partner.login }, { auth: { privateKeyJwt: { privateKey: partner.key.privateKey, kid: partner.key.kid } }, dpop: true });
      const created = await client.self.inviteUser({ name: 'ops@acme.example', role: 'partner-admin' });
      // The gateway's PUBLIC_URL is a loopback address: the link names localhost, where passkeys work.
      assert.match(created.url, /^http:\/\/localhost:[0-9]+\/portal\/#invitation=[A-Za-z0-9_-]{43}$/);
      const listed = await client.self.users();
      assert.deepEqual(listed.invitations.map((each) => [each.name, each.role, each.recovery]), [['ops@acme.example', 'partner-admin', false]]);
      assert.deepEqual(listed.users, []);
      await assert.rejects(client.self.removeUser('pu_unknownunknownunknown'), (error: unknown) => error instanceof PartnerApiError && error.status === 404);
    });

    it('when a partner rotates its key through the SDK, then a client on the old key keeps taking tokens, and one on the new key works at once', async () => {
      const partner = await addKeyPartner(t);
      const { client, calls } = testClient(t.url, { login: partner.login }, { auth: { privateKeyJwt: { privateKey: partner.key.privateKey, kid: partner.key.kid } }, dpop: true });
      const next = await partnerKey('EdDSA');
      const rotated = await client.self.rotateKey({ key: next.publicJwk as Record<string, unknown>, overlapSeconds: 3600 });
      assert.equal(rotated.added, next.kid);
      assert.ok(rotated.keys.find((key) => key.kid === partner.key.kid)?.expiresAt, 'the old key has an end');
      // The self token was asked for with scope self, bound, and kept apart from the banks token.
      const tokenForms = calls.filter((call) => call.path === TOKEN).map((call) => new URLSearchParams(call.body));
      assert.deepEqual(tokenForms.map((form) => form.get('scope')), ['self']);
      assert.ok(calls.filter((call) => call.path.startsWith(SELF)).every((call) => /^DPoP /.test(call.headers.authorization!) && call.headers.dpop));

      assert.ok((await client.banks()).length > 0, 'the old key still takes tokens');
      const renewed = new PartnerClient({ authUrl: t.url, apiUrl: t.url, login: partner.login, auth: { privateKeyJwt: { privateKey: next.privateKey, kid: next.kid } }, dpop: true });
      assert.ok((await renewed.banks()).length > 0, 'the new key works at once');
      assert.deepEqual((await renewed.self.keys()).keys.map((key) => key.kid).sort(), [partner.key.kid, next.kid].sort());
    });

    it('when a call was refused, then its owner finds it by request id through the SDK, and its usage counts it', async () => {
      const partner = await addKeyPartner(t, { methods: ['password', 'private_key_jwt'] });
      const refused = await fetch(`${t.url}/api/v1/login/`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ login: partner.login, password: 'wrong' }) });
      const requestId = refused.headers.get('x-request-id')!;
      const client = new PartnerClient({ authUrl: t.url, apiUrl: t.url, login: partner.login, auth: { privateKeyJwt: { privateKey: partner.key.privateKey, kid: partner.key.kid } } });
      const { calls } = await client.self.calls({ requestId });
      assert.equal(calls.length, 1);
      assert.equal(calls[0]!.reason, 'wrong_password');
      assert.ok(calls[0]!.explanation);
      const { usage } = await client.self.usage();
      assert.equal(usage.filter((row) => row.operation === 'login' && row.outcome === 'failure').reduce((sum, row) => sum + row.calls, 0), 1);
    });

    it('when the client has no DPoP key, then reading works and a rotation is refused 403 with the reason, changing nothing', async () => {
      const partner = await addKeyPartner(t);
      const client = new PartnerClient({ authUrl: t.url, apiUrl: t.url, login: partner.login, auth: { privateKeyJwt: { privateKey: partner.key.privateKey, kid: partner.key.kid } } });
      await assert.rejects(client.self.rotateKey({ key: (await partnerKey()).publicJwk as Record<string, unknown> }), (error: unknown) => {
        assert.ok(error instanceof PartnerApiError);
        assert.equal(error.status, 403);
        assert.match(error.description, /bound to your DPoP key/);
        return true;
      });
      assert.deepEqual((await client.self.keys()).keys.map((key) => key.kid), [partner.key.kid]);
    });

    it('when a client has only a password, then client.self is refused at once, before any request', () => {
      const client = new PartnerClient({ authUrl: t.url, apiUrl: t.url, login: 'acme', password: 'secret' });
      assert.throws(() => client.self, /privateKeyJwt/);
    });

    it('when a partner manages its webhook endpoints through the SDK, then it registers, rotates, reads the log and removes one (DELETE with a DPoP proof), and sees only its own', async () => {
      const partner = await addKeyPartner(t);
      const other = await addKeyPartner(t);
      const { client, calls } = testClient(t.url, { login: partner.login }, { auth: { privateKeyJwt: { privateKey: partner.key.privateKey, kid: partner.key.kid } }, dpop: true });
      const created = await client.self.createWebhook({ url: 'http://127.0.0.1:9/hooks', scheme: 'v1' });
      assert.match(String(created.secret), /^whsec_/);
      const theirs = new PartnerClient({ authUrl: t.url, apiUrl: t.url, login: other.login, auth: { privateKeyJwt: { privateKey: other.key.privateKey, kid: other.key.kid } }, dpop: true });
      assert.deepEqual((await theirs.self.webhooks()).endpoints, []);
      await assert.rejects(theirs.self.removeWebhook(created.endpoint.id), (error: unknown) => error instanceof PartnerApiError && error.status === 404);

      const rotated = await client.self.rotateWebhook(created.endpoint.id, { overlapHours: 1 });
      assert.notEqual(rotated.secret, created.secret);
      assert.ok(rotated.endpoint.previousUntil, 'the old secret signs for the overlap');
      assert.deepEqual((await client.self.webhookAttempts(created.endpoint.id, 10)).attempts, []);
      await client.self.removeWebhook(created.endpoint.id);
      assert.deepEqual((await client.self.webhooks()).endpoints, []);
      const removal = calls.find((call) => call.method === 'DELETE');
      assert.ok(removal && /^DPoP /.test(removal.headers.authorization!) && removal.headers.dpop, 'the removal presented a bound token with its proof');
    });

    it('when a partner reads its settings and changes its allowlist through the SDK, then the change needs the provider\'s leave and applies once given', async () => {
      const partner = await addKeyPartner(t);
      const client = new PartnerClient({ authUrl: t.url, apiUrl: t.url, login: partner.login, auth: { privateKeyJwt: { privateKey: partner.key.privateKey, kid: partner.key.kid } }, dpop: true });
      assert.equal((await client.self.settings()).selfManagedAllowlist, false);
      await assert.rejects(client.self.setAllowlist(['127.0.0.1']), (error: unknown) => error instanceof PartnerApiError && error.status === 403);
      await t.gateway.admin.partners.update(partner.login, { selfManagedAllowlist: true });
      const settings = await client.self.setAllowlist(['127.0.0.1', '::1', '192.0.2.0/24']);
      assert.deepEqual(settings.ipAllowlist, ['127.0.0.1/32', '::1/128', '192.0.2.0/24']);
      assert.ok((await client.banks()).length > 0, 'still allowed from here');
    });

    it('when a partner registers and rotates a client certificate through the SDK, then certificates() lists both, the older with its end, and the same certificate again is refused 409', async () => {
      const partner = await addKeyPartner(t);
      const client = new PartnerClient({ authUrl: t.url, apiUrl: t.url, login: partner.login, auth: { privateKeyJwt: { privateKey: partner.key.privateKey, kid: partner.key.kid } }, dpop: true });
      assert.deepEqual(await client.self.certificates(), { certificates: [] });
      const first = pki.issue({ subject: '/O=Acme/CN=sdk-first' });
      const registered = await client.self.rotateCertificate({ certificate: first.cert });
      const rotated = await client.self.rotateCertificate({ certificate: pki.issue({ subject: '/O=Acme/CN=sdk-next' }).cert, overlapSeconds: 600 });
      const listed = await client.self.certificates();
      assert.deepEqual(listed.certificates.map((each) => each.thumbprint), [registered.added, rotated.added]);
      assert.ok(listed.certificates[0]!.retiresAt, 'the older certificate has an end');
      await assert.rejects(client.self.rotateCertificate({ certificate: first.cert }), (error: unknown) => error instanceof PartnerApiError && error.status === 409 && /already registered/.test(error.description));
    });
  });
}
