import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { JWK } from 'jose';
import { ADMIN_AUDIT_PATH, SELF_PASSWORD_PATH, SELF_SETTINGS_PATH } from '@partner-gateway/contract/paths';
import type { RotatePasswordResponse } from '@partner-gateway/contract/self-service';
import { encryptPassword } from '../support/encrypt-password.js';
import { startListeningGateway } from '../support/key-partner.js';
import { selfServiceCaller, selfServicePartner } from '../support/self-service-caller.js';
import { testBackends } from '../support/test-databases.js';
import { TEST_ADMIN_TOKEN, type TestGateway } from '../support/test-gateway.js';
import { waitFor } from '../support/wait-for.js';

// Issue 37: a partner rotates its API password with an overlap window (a controlled clock): the old password logs
// in and calls the banks operation until the window ends, never after, not even remembered; an operator can end
// the window at once, and an operator's new password leaves no old one working.

const MINUTE = 60_000;

for (const backend of testBackends()) {
  describe(`API password rotation on ${backend.name}`, () => {
    let t: TestGateway & { url: string };
    let clock = Date.now();
    let caller: ReturnType<typeof selfServiceCaller>;
    let jwks: { keys: JWK[] };
    before(async () => {
      t = await startListeningGateway(backend, { now: () => clock });
      caller = selfServiceCaller(t.url, () => clock);
      jwks = (await (await fetch(`${t.url}/.well-known/jwks.json`)).json()) as { keys: JWK[] };
    });
    after(() => t.close());

    const passwordPartner = () => selfServicePartner(t, caller, ['password', 'private_key_jwt']);
    type PasswordPartner = Awaited<ReturnType<typeof passwordPartner>>;
    const rotate = async (partner: PasswordPartner, body: unknown) => {
      const response = await caller.call(partner.token, 'POST', SELF_PASSWORD_PATH, body, partner.dpopKey);
      assert.equal(response.status, 200, await response.clone().text());
      return (await response.json()) as RotatePasswordResponse;
    };
    const login = async (loginName: string, password: string) =>
      (await fetch(`${t.url}/api/v1/login/`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ login: loginName, password }) })).status;
    /** The banks call with the name and a fresh JWE of `password` (remembered after its first success). */
    const banks = async (loginName: string, password: string) =>
      (await fetch(`${t.url}/partner/provider/sbp/banks/?partnerName=${loginName}&partnerPassword=${await encryptPassword(password, jwks, { header: { iat: Math.floor(clock / 1000) } })}&useAuthByCert=Y`, { method: 'POST' })).status;
    const admin = (method: 'GET' | 'PATCH', url: string, payload?: Record<string, unknown>) =>
      t.admin.inject({ method, url, headers: { authorization: `Bearer ${TEST_ADMIN_TOKEN}` }, ...(payload ? { payload } : {}) });

    it('when a partner rotates its password with a one-hour overlap, then the old one works until the hour ends and never after, the new one at once, and no session ends', async () => {
      const partner = await passwordPartner();
      const session = (await (await fetch(`${t.url}/api/v1/login/`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ login: partner.login, password: partner.password }) })).json()) as { access_token: string };
      assert.equal(await banks(partner.login, partner.password), 200);
      const rotated = await rotate(partner, { overlapSeconds: 3600 });
      assert.match(rotated.password, /^pgw_[A-Za-z0-9_-]{43}$/);
      assert.equal(rotated.previousPasswordUntil, new Date(clock + 3600_000).toISOString());
      assert.equal(((await admin('GET', `/admin/v1/partners/${partner.login}`)).json() as { previousPasswordUntil: string }).previousPasswordUntil, rotated.previousPasswordUntil);

      assert.equal(await login(partner.login, rotated.password), 200, 'the new password at once');
      assert.equal(await banks(partner.login, rotated.password), 200);
      const banksWithSession = await fetch(`${t.url}/partner/provider/sbp/banks/`, { method: 'POST', headers: { authorization: `Bearer ${session.access_token}` } });
      assert.equal(banksWithSession.status, 200, 'a session from before the rotation goes on');
      for (const minutes of [0, 30, 59]) {
        clock += minutes === 0 ? 0 : MINUTE * (minutes === 30 ? 30 : 29);
        assert.equal(await login(partner.login, partner.password), 200, `old password at +${minutes} min`);
        assert.equal(await banks(partner.login, partner.password), 200, `old password remembered at +${minutes} min`);
      }
      clock += 2 * MINUTE;
      assert.equal(await banks(partner.login, partner.password), 401, 'remembered or not, the old password ended with its window');
      assert.equal(await login(partner.login, partner.password), 401);
      assert.equal(await login(partner.login, rotated.password), 200);

      const entry = await waitFor(async () => ((await admin('GET', `${ADMIN_AUDIT_PATH}?partner=${partner.login}&action=self.password.rotate&outcome=success`)).json() as { entries: Array<{ details: unknown }> }).entries[0]);
      assert.deepEqual(entry.details, { previousPasswordUntil: rotated.previousPasswordUntil, sessionsEnded: false });
      const trail = (await admin('GET', `${ADMIN_AUDIT_PATH}?partner=${partner.login}`)).body;
      assert.ok(!trail.includes(rotated.password) && !trail.includes(partner.password), 'no password in the audit trail');
    });

    it('when a partner rotates its password asking to end its sessions, then every token issued before is refused, its own self token too, and new ones work', async () => {
      const partner = await passwordPartner();
      const session = (await (await fetch(`${t.url}/api/v1/login/`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ login: partner.login, password: partner.password }) })).json()) as { access_token: string };
      const bearerBanks = (token: string) => fetch(`${t.url}/partner/provider/sbp/banks/`, { method: 'POST', headers: { authorization: `Bearer ${token}` } });
      assert.equal((await bearerBanks(session.access_token)).status, 200);
      const rotated = await rotate(partner, { overlapSeconds: 0, endSessions: true });
      assert.equal((await bearerBanks(session.access_token)).status, 401, 'the session from before the rotation');
      assert.equal((await caller.call(partner.token, 'GET', SELF_SETTINGS_PATH, undefined, partner.dpopKey)).status, 401, 'the self token that asked');
      assert.equal(await login(partner.login, partner.password), 401, 'the old password, with no overlap');
      const fresh = (await (await fetch(`${t.url}/api/v1/login/`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ login: partner.login, password: rotated.password }) })).json()) as { access_token: string };
      assert.equal((await bearerBanks(fresh.access_token)).status, 200);
    });

    it('when an operator ends the overlap, or sets a new password, then the old password stops at once', async () => {
      const partner = await passwordPartner();
      const first = await rotate(partner, { overlapSeconds: 86_400 });
      assert.equal(await banks(partner.login, partner.password), 200, 'remembered before the operator acts');
      const ended = await admin('PATCH', `/admin/v1/partners/${partner.login}`, { previousPasswordUntil: null });
      assert.equal(ended.statusCode, 200, ended.body);
      assert.equal(await banks(partner.login, partner.password), 401);
      assert.equal(await login(partner.login, partner.password), 401);
      assert.equal(await login(partner.login, first.password), 200);

      const token = await caller.boundToken(partner.login, partner.key, partner.dpopKey);
      const second = (await (await caller.call(token, 'POST', SELF_PASSWORD_PATH, { overlapSeconds: 86_400 }, partner.dpopKey)).json()) as RotatePasswordResponse;
      assert.equal(await login(partner.login, first.password), 200, 'the password just replaced overlaps');
      assert.equal((await admin('PATCH', `/admin/v1/partners/${partner.login}`, { password: 'an operator set this one' })).statusCode, 200);
      assert.equal(await login(partner.login, first.password), 401, "the operator's new password leaves no old one");
      assert.equal(await login(partner.login, second.password), 401);
      assert.equal(await login(partner.login, 'an operator set this one'), 200);
    });

    it('when a bearer token asks for a new password, then it is refused and the password is unchanged', async () => {
      const partner = await passwordPartner();
      const refused = await caller.call(await caller.token(partner.login, partner.key), 'POST', SELF_PASSWORD_PATH, {});
      assert.equal(refused.status, 403);
      assert.equal(await login(partner.login, partner.password), 200);
      assert.equal(((await admin('GET', `/admin/v1/partners/${partner.login}`)).json() as { previousPasswordUntil: null }).previousPasswordUntil, null);
    });
  });
}
