import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { MAX_PARTNER_USERS, MAX_PASSKEYS_PER_USER, type InvitationCreated, type PartnerUserList, type PartnerUserView } from '@partner-gateway/contract/partner-users';
import type { PasskeyOptions } from '@partner-gateway/contract/portal';
import {
  ADMIN_AUDIT_PATH,
  ADMIN_PARTNER_INVITATIONS_PATH,
  ADMIN_PARTNER_USERS_PATH,
  PORTAL_INVITATION_ACCEPT_PATH,
  PORTAL_INVITATION_OPTIONS_PATH,
  PORTAL_INVITATION_PATH,
  PORTAL_SESSION_PATH,
  PORTAL_SIGN_IN_OPTIONS_PATH,
  PORTAL_SIGN_IN_PATH,
  PORTAL_SIGN_OUT_PATH,
  SELF_ALLOWLIST_PATH,
  SELF_CALLS_PATH,
  SELF_INVITATIONS_PATH,
  SELF_KEYS_PATH,
  SELF_USER_PATH,
  SELF_USERS_PATH,
} from '@partner-gateway/contract/paths';
import { startListeningGateway } from '../support/key-partner.js';
import { registerKeys, testKey } from '../support/oauth-client.js';
import { invitedUser, portalBrowser } from '../support/portal-browser.js';
import { testBackends } from '../support/test-databases.js';
import { TEST_ADMIN_TOKEN, type TestGateway } from '../support/test-gateway.js';
import { waitFor } from '../support/wait-for.js';
import { errors } from '../../src/errors.js';

/** The refusal's status and description, as the partner sees it. */
const answered = async (response: Response) => [response.status, ((await response.json()) as { description_status: string }).description_status];

// Issue 37: partner users who sign in to the portal with a passkey, invited by an operator or by the partner's own
// admin; their session calls the self-service API as a token does, with a CSRF token and the partner-admin role for a
// change, and the audit trail names them.

for (const backend of testBackends()) {
  describe(`the partner portal's people and sessions on ${backend.name}`, () => {
    let t: TestGateway & { url: string; publicUrl: string };
    let clock = Date.now();
    before(async () => {
      t = await startListeningGateway(backend, { now: () => clock }, 'localhost');
    });
    after(async () => t.close());
    const admin = (method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, payload?: unknown) =>
      t.admin.inject({ method, url, headers: { authorization: `Bearer ${TEST_ADMIN_TOKEN}` }, ...(payload === undefined ? {} : { payload: payload as object }) });
    const keyPartner = async () => {
      const partner = await t.addPartner();
      await registerKeys(t.gateway, partner.login, [await testKey()]);
      return partner;
    };

    it('when an operator invites a partner admin who accepts with a passkey, then the session reads and rotates the partner\'s keys, and the audit names the person', async () => {
      const partner = await keyPartner();
      const anna = await invitedUser(t, partner.login, 'anna@acme.example', 'partner-admin');
      assert.deepEqual({ partner: anna.session?.partner, role: anna.session?.user.role }, { partner: partner.login, role: 'partner-admin' });
      const keys = await anna.call('GET', SELF_KEYS_PATH);
      assert.equal(keys.status, 200, await keys.clone().text());
      const newKey = await testKey();
      const rotated = await anna.call('POST', SELF_KEYS_PATH, { key: newKey.publicJwk, overlapSeconds: 3600 });
      assert.equal(rotated.status, 200, await rotated.clone().text());
      const entry = await waitFor(async () => {
        const { entries } = (await admin('GET', `${ADMIN_AUDIT_PATH}?partner=${partner.login}&action=self.keys.rotate`)).json() as { entries: Array<{ operator: unknown; outcome: string }> };
        return entries[0];
      });
      assert.deepEqual(entry.operator, { id: anna.session?.user.id, name: 'anna@acme.example', credential: 'passkey' });
    });

    it('when a change arrives without the session\'s CSRF token or from another origin, then it is refused and nothing changes', async () => {
      const partner = await keyPartner();
      const anna = await invitedUser(t, partner.login, 'anna@acme.example', 'partner-admin');
      const before = await (await anna.call('GET', SELF_KEYS_PATH)).text();
      const body = { key: (await testKey()).publicJwk };
      for (const refused of [await anna.call('POST', SELF_KEYS_PATH, body, { csrf: false }), await anna.call('POST', SELF_KEYS_PATH, body, { origin: 'https://evil.example' })]) {
        assert.deepEqual(await answered(refused), [403, errors.portalCsrfRefused().description]);
      }
      assert.equal(await (await anna.call('GET', SELF_KEYS_PATH)).text(), before);
    });

    it('when a partner admin invites a developer, then the developer reads the request log but every change is refused with partner_admin_required', async () => {
      const partner = await keyPartner();
      const anna = await invitedUser(t, partner.login, 'anna@acme.example', 'partner-admin');
      const invited = await anna.call('POST', SELF_INVITATIONS_PATH, { name: 'dev@acme.example', role: 'partner-developer' });
      assert.equal(invited.status, 201, await invited.clone().text());
      const dev = portalBrowser(t.url, t.publicUrl);
      await dev.accept(((await invited.json()) as { url: string }).url);
      assert.equal(dev.session?.user.role, 'partner-developer');
      assert.equal((await dev.call('GET', SELF_CALLS_PATH)).status, 200);
      assert.equal((await dev.call('GET', SELF_USERS_PATH)).status, 200);
      for (const [method, path, body] of [
        ['POST', SELF_KEYS_PATH, { key: (await testKey()).publicJwk }],
        ['POST', SELF_INVITATIONS_PATH, { name: 'x@acme.example', role: 'partner-admin' }],
        ['PUT', SELF_USER_PATH.replace(':id', dev.session!.user.id), { role: 'partner-admin' }],
      ] as const) {
        assert.deepEqual(await answered(await dev.call(method, path, body)), [403, errors.partnerAdminRequired().description], `${method} ${path}`);
      }
      const people = (await (await anna.call('GET', SELF_USERS_PATH)).json()) as PartnerUserList;
      assert.deepEqual(people.users.map((user) => [user.name, user.role, user.passkeys]).sort(), [['anna@acme.example', 'partner-admin', 1], ['dev@acme.example', 'partner-developer', 1]]);
    });

    it('when an invitation link is used once, then a second use and a guessed link answer the same 404', async () => {
      const partner = await keyPartner();
      const response = await admin('POST', ADMIN_PARTNER_USERS_PATH.replace(':login', partner.login) + '/invitations', { name: 'once@acme.example', role: 'partner-admin' });
      const { url } = response.json() as { url: string };
      const token = new URL(url).hash.replace('#invitation=', '');
      const first = portalBrowser(t.url, t.publicUrl);
      await first.accept(url);
      const answers = [];
      for (const each of [token, 'A'.repeat(43)]) {
        answers.push(await answered(await first.post(PORTAL_INVITATION_PATH, { token: each })));
        answers.push(await answered(await first.post(PORTAL_INVITATION_OPTIONS_PATH, { token: each })));
      }
      assert.deepEqual(answers, Array(4).fill([404, errors.invitationUnknown().description]));
    });

    it('when an invitation is 72 hours old or a session idles past SESSION_IDLE_TIMEOUT, then the link answers 404 and the session must sign in again', async () => {
      const partner = await keyPartner();
      const anna = await invitedUser(t, partner.login, 'anna@acme.example', 'partner-admin');
      const { url } = (await admin('POST', ADMIN_PARTNER_USERS_PATH.replace(':login', partner.login) + '/invitations', { name: 'late@acme.example', role: 'partner-admin' })).json() as { url: string };
      const token = new URL(url).hash.replace('#invitation=', '');
      clock += 72 * 3600_000;
      assert.deepEqual(await answered(await anna.post(PORTAL_INVITATION_PATH, { token })), [404, errors.invitationUnknown().description]);
      assert.deepEqual(await answered(await anna.call('GET', PORTAL_SESSION_PATH)), [401, errors.portalSignInRequired().description]);
      await anna.signIn();
      assert.equal((await anna.call('GET', PORTAL_SESSION_PATH)).status, 200);
      clock += 900_000 - 1000;
      assert.equal((await anna.call('GET', PORTAL_SESSION_PATH)).status, 200, 'a request keeps the session alive');
      clock += 900_000 + 1000;
      assert.equal((await anna.call('GET', SELF_KEYS_PATH)).status, 401);
    });

    it('when two browsers race to accept one invitation, then one person is registered and the other answer is 404', async () => {
      const partner = await keyPartner();
      const { url } = (await admin('POST', ADMIN_PARTNER_USERS_PATH.replace(':login', partner.login) + '/invitations', { name: 'race@acme.example', role: 'partner-admin' })).json() as { url: string };
      const token = new URL(url).hash.replace('#invitation=', '');
      const browsers = [portalBrowser(t.url, t.publicUrl), portalBrowser(t.url, t.publicUrl)];
      const options = await Promise.all(browsers.map(async (browser) => (await (await browser.post(PORTAL_INVITATION_OPTIONS_PATH, { token })).json()) as PasskeyOptions));
      const answers = await Promise.all(browsers.map((browser, index) => browser.post(PORTAL_INVITATION_ACCEPT_PATH, { token, response: browser.passkey.create(options[index]!, t.publicUrl) })));
      assert.deepEqual(answers.map((answer) => answer.status).sort(), [200, 404]);
      const { users } = (await admin('GET', ADMIN_PARTNER_USERS_PATH.replace(':login', partner.login))).json() as PartnerUserList;
      assert.deepEqual(users.map((user) => [user.name, user.passkeys]), [['race@acme.example', 1]]);
    });

    it('when a person signs in with their passkey, then a replayed assertion, another origin\'s assertion and an unknown passkey are refused', async () => {
      const partner = await keyPartner();
      const anna = await invitedUser(t, partner.login, 'anna@acme.example', 'partner-admin');
      const options = (await (await anna.post(PORTAL_SIGN_IN_OPTIONS_PATH)).json()) as PasskeyOptions;
      const assertion = anna.passkey.get(options, t.publicUrl);
      assert.equal((await anna.post(PORTAL_SIGN_IN_PATH, { response: assertion })).status, 200);
      assert.equal((await anna.post(PORTAL_SIGN_IN_PATH, { response: assertion })).status, 401, 'a challenge answers once');
      const fresh = (await (await anna.post(PORTAL_SIGN_IN_OPTIONS_PATH)).json()) as PasskeyOptions;
      assert.equal((await anna.post(PORTAL_SIGN_IN_PATH, { response: anna.passkey.get(fresh, 'https://phish.example') })).status, 401);
      const stranger = portalBrowser(t.url, t.publicUrl);
      const again = (await (await stranger.post(PORTAL_SIGN_IN_OPTIONS_PATH)).json()) as PasskeyOptions;
      assert.deepEqual(await answered(await stranger.post(PORTAL_SIGN_IN_PATH, { response: stranger.passkey.get(again, t.publicUrl) })), [401, errors.passkeyRefused().description]);
      assert.equal((await anna.signIn()).user.name, 'anna@acme.example');
    });

    it('when a person is removed or signs out everywhere, then their sessions end at once; the last partner admin cannot be demoted or removed', async () => {
      const partner = await keyPartner();
      const anna = await invitedUser(t, partner.login, 'anna@acme.example', 'partner-admin');
      const ben = await invitedUser(t, partner.login, 'ben@acme.example', 'partner-admin');
      const annaId = anna.session!.user.id;
      const benId = ben.session!.user.id;
      const removed = await anna.call('DELETE', SELF_USER_PATH.replace(':id', benId));
      assert.equal(removed.status, 204);
      assert.equal((await ben.call('GET', PORTAL_SESSION_PATH)).status, 401);
      assert.equal((await ben.call('GET', SELF_KEYS_PATH)).status, 401);
      for (const [method, body] of [['PUT', { role: 'partner-developer' }], ['DELETE', undefined]] as const) {
        assert.deepEqual(await answered(await anna.call(method, SELF_USER_PATH.replace(':id', annaId), body)), [409, errors.lastPartnerAdmin().description]);
      }
      await anna.signIn();
      assert.equal((await anna.call('POST', PORTAL_SIGN_OUT_PATH, { everywhere: true })).status, 204);
      assert.equal((await anna.call('GET', PORTAL_SESSION_PATH)).status, 401);
    });

    it('when an operator removes a person who left, the last partner admin included, then their session ends at once and the removal is audited', async () => {
      const partner = await keyPartner();
      const anna = await invitedUser(t, partner.login, 'anna@acme.example', 'partner-admin');
      const removed = await t.admin.inject({ method: 'DELETE', url: `${ADMIN_PARTNER_USERS_PATH.replace(':login', partner.login)}/${anna.session!.user.id}`, headers: { authorization: `Bearer ${TEST_ADMIN_TOKEN}` } });
      assert.equal(removed.statusCode, 204, removed.body);
      assert.deepEqual(await answered(await anna.call('GET', SELF_KEYS_PATH)), [401, errors.portalSignInRequired().description]);
      assert.deepEqual(((await admin('GET', ADMIN_PARTNER_USERS_PATH.replace(':login', partner.login))).json() as PartnerUserList).users, []);
      const again = await t.admin.inject({ method: 'DELETE', url: `${ADMIN_PARTNER_USERS_PATH.replace(':login', partner.login)}/${anna.session!.user.id}`, headers: { authorization: `Bearer ${TEST_ADMIN_TOKEN}` } });
      assert.equal(again.statusCode, 404);
      const entry = await waitFor(async () => ((await admin('GET', `${ADMIN_AUDIT_PATH}?partner=${partner.login}&action=partner.users.delete&outcome=success`)).json() as { entries: Array<{ details: { before: { name: string } } }> }).entries[0]);
      assert.equal(entry.details.before.name, 'anna@acme.example');
    });

    it("when an operator lets the partner manage its allowlist, then a partner admin changes it from the portal without its browser's address, a developer cannot, and a blocked partner's people can only sign out", async () => {
      const partner = await keyPartner();
      const anna = await invitedUser(t, partner.login, 'anna@acme.example', 'partner-admin');
      const dev = await invitedUser(t, partner.login, 'dev@acme.example', 'partner-developer');
      assert.equal((await admin('PATCH', `/admin/v1/partners/${partner.login}`, { selfManagedAllowlist: true })).statusCode, 200);
      const changed = await anna.call('PUT', SELF_ALLOWLIST_PATH, { ipAllowlist: ['203.0.113.0/24'] });
      assert.equal(changed.status, 200, await changed.clone().text());
      assert.deepEqual(((await changed.json()) as { ipAllowlist: string[] }).ipAllowlist, ['203.0.113.0/24']);
      assert.deepEqual(await answered(await dev.call('PUT', SELF_ALLOWLIST_PATH, { ipAllowlist: ['127.0.0.1/32'] })), [403, errors.partnerAdminRequired().description]);
      assert.equal((await admin('PATCH', `/admin/v1/partners/${partner.login}`, { status: 'blocked' })).statusCode, 200);
      assert.deepEqual(await answered(await anna.call('GET', SELF_KEYS_PATH)), [403, errors.blocked().description]);
      assert.equal((await anna.call('POST', PORTAL_SIGN_OUT_PATH, {})).status, 204);
      assert.equal((await anna.call('GET', PORTAL_SESSION_PATH)).status, 401);
    });

    it('when two partner admins demote each other at once, then one of them stays partner admin', async () => {
      const partner = await keyPartner();
      const anna = await invitedUser(t, partner.login, 'anna@acme.example', 'partner-admin');
      const ben = await invitedUser(t, partner.login, 'ben@acme.example', 'partner-admin');
      const answers = await Promise.all([
        anna.call('PUT', SELF_USER_PATH.replace(':id', ben.session!.user.id), { role: 'partner-developer' }),
        ben.call('PUT', SELF_USER_PATH.replace(':id', anna.session!.user.id), { role: 'partner-developer' }),
      ]);
      const { users } = (await admin('GET', ADMIN_PARTNER_USERS_PATH.replace(':login', partner.login))).json() as PartnerUserList;
      assert.equal(users.filter((user: PartnerUserView) => user.role === 'partner-admin').length, 1, JSON.stringify(answers.map((answer) => answer.status)));
    });

    it('when an operator re-invites a person who lost their passkey, then the new link adds a passkey to the same person with the same role', async () => {
      const partner = await keyPartner();
      const dev = await invitedUser(t, partner.login, 'dev@acme.example', 'partner-developer');
      const again = await invitedUser(t, partner.login, 'DEV@acme.example', 'partner-admin');
      assert.deepEqual([again.session?.user.id, again.session?.user.role], [dev.session?.user.id, 'partner-developer']);
      const { users } = (await admin('GET', ADMIN_PARTNER_USERS_PATH.replace(':login', partner.login))).json() as PartnerUserList;
      assert.deepEqual(users.map((user) => [user.name, user.passkeys]), [['dev@acme.example', 2]]);
    });

    it(`when ${MAX_PARTNER_USERS + 10} invitations arrive at once, then the partner holds at most ${MAX_PARTNER_USERS} people and pending invitations and the rest are refused with partner_users_limit`, async () => {
      const partner = await keyPartner();
      const invite = (n: number) => admin('POST', ADMIN_PARTNER_INVITATIONS_PATH.replace(':login', partner.login), { name: `person-${n}@acme.example`, role: 'partner-developer' });
      const answers = await Promise.all(Array.from({ length: MAX_PARTNER_USERS + 10 }, (_, n) => invite(n)));
      const statuses = answers.map((answer) => answer.statusCode);
      assert.deepEqual([statuses.filter((status) => status === 201).length, statuses.filter((status) => status === 422).length], [MAX_PARTNER_USERS, 10]);
      const refused = answers.find((answer) => answer.statusCode === 422)!;
      assert.equal(refused.json().description_status, errors.partnerUsersLimit('people and pending invitations', MAX_PARTNER_USERS).description);
      const { users, invitations } = (await admin('GET', ADMIN_PARTNER_USERS_PATH.replace(':login', partner.login))).json() as PartnerUserList;
      assert.equal(users.length + invitations.length, MAX_PARTNER_USERS);
    });

    it(`when a person already holding ${MAX_PASSKEYS_PER_USER} passkeys follows a recovery link, then it is refused with partner_users_limit and the link stays pending`, async () => {
      const partner = await keyPartner();
      for (let n = 0; n < MAX_PASSKEYS_PER_USER; n++) await invitedUser(t, partner.login, 'many@acme.example', 'partner-developer');
      const response = await admin('POST', ADMIN_PARTNER_INVITATIONS_PATH.replace(':login', partner.login), { name: 'many@acme.example', role: 'partner-developer' });
      const browser = portalBrowser(t.url, t.publicUrl);
      const token = new URL((response.json() as InvitationCreated).url).hash.replace('#invitation=', '');
      const options = (await (await browser.post(PORTAL_INVITATION_OPTIONS_PATH, { token })).json()) as PasskeyOptions;
      const accepted = await browser.post(PORTAL_INVITATION_ACCEPT_PATH, { token, response: browser.passkey.create(options, t.publicUrl) });
      assert.deepEqual(await answered(accepted), [422, errors.partnerUsersLimit('passkeys per person', MAX_PASSKEYS_PER_USER).description]);
      const { invitations } = (await admin('GET', ADMIN_PARTNER_USERS_PATH.replace(':login', partner.login))).json() as PartnerUserList;
      assert.deepEqual(invitations.map((invitation) => [invitation.name, invitation.recovery]), [['many@acme.example', true]]);
    });
  });
}
