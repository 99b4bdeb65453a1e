/**
 * The console's single sign-on, end to end in Debian's Chromium against a real OpenID provider started for the
 * test (node-oidc-provider, with its development login and consent pages, on a loopback port): an operator of the
 * `gateway-operators` group signs in with authorization code and PKCE, lands in the console with the operator
 * role (and appears among the operators), sees that role's pages, makes a change and finds it in the audit trail
 * under its own name, and signs out, after which the old session cookie is refused. A user of no mapped group is
 * refused with a page that says why. The identity provider stays the source of truth (issue 33, finding 4): an
 * operator who created a personal token and is then moved to an unmapped group is refused at its next sign-in,
 * after which its token and its console session are refused too; mapped again, it signs in again, and a token of
 * its is refused once it has not signed in for OIDC_TOKEN_SIGN_IN_MAX_AGE (the gateway's clock moved on, not waited).
 */
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import type { Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import Provider from 'oidc-provider';
import { chromium, type BrowserContext, type Locator, type Page } from 'playwright-core';
import { projectFile } from '../../src/project-root.js';
import { freePort } from '../support/free-port.js';
import { testBackends } from '../support/test-databases.js';
import { errors } from '../../src/errors.js';
import { startTestGateway, TEST_ADMIN_TOKEN, type TestGateway } from '../support/test-gateway.js';
import { textOf } from '../support/locator-text.js';
import { waitFor } from '../support/wait-for.js';

const CHROMIUM = '/usr/bin/chromium';
const skip = existsSync(CHROMIUM) ? false : `${CHROMIUM} is missing: install Debian's chromium (apt-get install -y chromium; .ci/run does) to run the console's browser tests`;
const CHROMIUM_ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];
const CLIENT = { id: 'gateway-console', secret: 'a-client-secret-for-the-console-test' };
/** The identity provider's people and their groups. */
const ACCOUNTS: Record<string, { name: string; groups: string[] }> = {
  olga: { name: 'olga', groups: ['staff', 'gateway-operators'] },
  uma: { name: 'uma', groups: ['marketing'] },
};

describe('console single sign-on in Chromium', { skip, timeout: 180_000 }, () => {
  let t: TestGateway;
  let base: string;
  let provider: Server;
  let context: BrowserContext;
  let page: Page;
  let profile: string;
  const pageErrors: string[] = [];
  /** How far the gateway's clock runs ahead of the real one (moved on to reach OIDC_TOKEN_SIGN_IN_MAX_AGE). */
  let clockAhead = 0;
  const api = async (url: string) => (await t.admin.inject({ method: 'GET', url, headers: { authorization: `Bearer ${TEST_ADMIN_TOKEN}` } })).json();

  before(async () => {
    if (!existsSync(projectFile('dist/console/index.html'))) {
      const { build } = await import('vite');
      await build({ configFile: projectFile('console/vite.config.mjs') });
    }
    const [adminPort, providerPort] = [await freePort(), await freePort()];
    base = `http://127.0.0.1:${adminPort}`;
    const issuer = `http://127.0.0.1:${providerPort}`;
    const oidc = new Provider(issuer, {
      clients: [{ client_id: CLIENT.id, client_secret: CLIENT.secret, redirect_uris: [`${base}/sso/callback`], grant_types: ['authorization_code'], response_types: ['code'], token_endpoint_auth_method: 'client_secret_basic' }],
      claims: { openid: ['sub'], profile: ['preferred_username', 'groups'] },
      findAccount: async (_context, id) => ({
        accountId: id,
        claims: async () => ({ sub: id, preferred_username: ACCOUNTS[id]?.name ?? id, groups: ACCOUNTS[id]?.groups ?? [] }),
      }),
      pkce: { required: () => true },
      features: { devInteractions: { enabled: true } },
      cookies: { keys: ['a-cookie-key-for-the-test-provider'] },
    });
    provider = oidc.listen(providerPort);
    t = await startTestGateway(testBackends()[0]!, {
      now: () => Date.now() + clockAhead,
      env: {
        ADMIN_PUBLIC_URL: base,
        OIDC_ISSUER: issuer,
        OIDC_CLIENT_ID: CLIENT.id,
        OIDC_CLIENT_SECRET: CLIENT.secret,
        OIDC_SCOPES: 'openid profile',
        OIDC_ROLE_MAP: 'gateway-security=security,gateway-operators=operator,gateway-viewers=viewer',
      },
    });
    await t.admin.listen({ host: '127.0.0.1', port: adminPort });
    profile = mkdtempSync(join(tmpdir(), 'console-sso-'));
    context = await chromium.launchPersistentContext(profile, { executablePath: CHROMIUM, headless: true, args: CHROMIUM_ARGS, viewport: { width: 1280, height: 860 }, locale: 'en-GB', timezoneId: 'Europe/Moscow' });
    page = context.pages()[0] ?? (await context.newPage());
    page.setDefaultTimeout(15_000);
    page.on('pageerror', (error) => pageErrors.push(error.message));
  });

  after(async () => {
    await context?.close();
    await t?.close();
    await new Promise((resolve) => (provider ? provider.close(resolve) : resolve(undefined)));
    if (profile) rmSync(profile, { recursive: true, force: true });
  });

  /** The provider's development login and consent pages, as its user fills them (from the console's link, or straight from /sso/start). */
  async function signInAtProvider(login: string, from: 'console' | 'start' = 'console') {
    if (from === 'start') await page.goto(`${base}/sso/start`);
    else {
      await page.goto(base);
      await page.getByRole('link', { name: 'Sign in with single sign-on' }).click();
    }
    await page.locator('input[name=login]').fill(login);
    await page.locator('input[name=password]').fill('any password');
    await page.getByRole('button', { name: 'Sign-in' }).click();
    await page.getByRole('button', { name: 'Continue' }).click();
  }

  let oldCookie = '';

  it('when a member of gateway-operators signs in, then it is in the console as an operator with a session cookie that holds no token', async () => {
    await signInAtProvider('olga');
    await page.getByRole('heading', { name: 'Partners', level: 1 }).waitFor();
    await textOf(page.getByTestId('signed-in-as'), /^olga \(operator, single sign-on\)$/);
    const cookies = await context.cookies(base);
    const session = cookies.find((cookie) => cookie.name === '__Host-partner-gateway-session');
    assert.ok(session, JSON.stringify(cookies));
    assert.deepEqual({ httpOnly: session.httpOnly, secure: session.secure, sameSite: session.sameSite, path: session.path }, { httpOnly: true, secure: true, sameSite: 'Strict', path: '/' });
    assert.match(session.value, /^[A-Za-z0-9_-]{43}$/, 'a random id, not a token');
    assert.equal(await page.evaluate(`sessionStorage.getItem('partner-gateway.admin-token')`), null);
    oldCookie = session.value;
    const { operators } = await api('/admin/v1/operators');
    const olga = operators.find((operator: { name: string }) => operator.name === 'olga');
    assert.deepEqual({ role: olga.role, source: olga.source, status: olga.status }, { role: 'operator', source: 'sso', status: 'active' });
  });

  it("when it goes through the console, then it sees the operator role's pages and not security's controls", async () => {
    await page.getByRole('link', { name: 'New partner' }).waitFor();
    await page.getByRole('link', { name: 'Keys' }).click();
    await page.getByRole('heading', { name: 'Keys', level: 1 }).waitFor();
    assert.equal(await page.getByRole('button', { name: /Rotate the/ }).count(), 0, 'no rotation for an operator');
    await page.getByRole('link', { name: 'Operators' }).click();
    await page.getByRole('heading', { name: 'Operators', level: 1 }).waitFor();
    await page.getByRole('row', { name: /olga/ }).waitFor();
    assert.equal(await page.getByLabel("New operator's name").count(), 0, 'no operator creation for an operator');
    await page.getByRole('link', { name: 'Approvals' }).click();
    await textOf(page.locator('#approval-settings-heading + form .hint'), /Only the security role changes these/);
    await page.getByRole('link', { name: 'Banks' }).click();
    await page.getByRole('heading', { name: 'Add a bank' }).waitFor();
  });

  it('when it adds a bank, then the change is in the audit trail under its own name, and a change without the CSRF token is refused', async () => {
    await page.getByLabel('BIC', { exact: true }).fill('049999977');
    await page.getByLabel('Name', { exact: true }).fill('Банк SSO');
    await page.getByRole('button', { name: 'Add bank' }).click();
    await textOf(page.locator('.announcer'), /049999977|Банк SSO/);
    // The cookie alone does not make a change: a page of another origin could make the browser send it, not the token.
    const forged = await page.evaluate(`fetch('/admin/v1/banks', { method: 'POST', credentials: 'same-origin', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ bic: '049999978', name: 'Forged' }) }).then((response) => response.status)`);
    assert.equal(forged, 403);
    await page.getByRole('link', { name: 'Audit' }).click();
    await page.getByRole('heading', { name: 'Audit', level: 1 }).waitFor();
    const olga = (await api('/admin/v1/operators')).operators.find((operator: { name: string }) => operator.name === 'olga');
    await page.getByLabel('Operator').selectOption(olga.id);
    await page.getByLabel('Action').selectOption('bank.add');
    // The forged request is in the trail too, refused (csrf_refused): the change is the successful entry.
    await page.getByLabel('Outcome').selectOption('success');
    await page.getByRole('button', { name: 'Search' }).click();
    const row = page.getByRole('table', { name: 'Audit entries, newest first' }).locator('tbody tr').first();
    await textOf(row, /bank\.add/);
    const text = await textOf(row, /olga \(single sign-on\)/);
    assert.match(text, /UTC\+03:00/, 'the time says its time zone');
    assert.match(text, /049999977/);
    await textOf(page.locator('p.count'), /^1 entry matches\.$/);
  });

  it('when it signs out, then the console asks to sign in and the old cookie is refused', async () => {
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByRole('heading', { name: 'Partner Gateway admin console' }).waitFor();
    const refused = await t.admin.inject({ method: 'GET', url: '/admin/v1/me', headers: { cookie: `__Host-partner-gateway-session=${oldCookie}` } });
    assert.equal(refused.statusCode, 401);
    await context.addCookies([{ name: '__Host-partner-gateway-session', value: oldCookie, domain: '127.0.0.1', path: '/', httpOnly: true, secure: true, sameSite: 'Strict' }]);
    assert.equal(await page.evaluate(`fetch('/admin/v1/me', { credentials: 'same-origin' }).then((response) => response.status)`), 401);
    await t.gateway.admin.audit.flush();
    const signOut = (await api('/admin/v1/audit?action=session.sign-out&limit=1')).entries[0];
    assert.equal(signOut.operator.name, 'olga');
  });

  it('when a user of no mapped group signs in, then a page says why and no operator is made', async () => {
    await context.clearCookies();
    await signInAtProvider('uma');
    await page.getByRole('heading', { name: 'Your account has no role in the admin console' }).waitFor();
    await textOf(page.locator('main p').first(), /You signed in as uma, but your groups \(marketing\) include none of those the console maps to a role \(gateway-security, gateway-operators, gateway-viewers\)/);
    assert.ok(!(await api('/admin/v1/operators')).operators.some((operator: { name: string }) => operator.name === 'uma'));
    assert.equal((await context.cookies(base)).some((cookie) => cookie.name === '__Host-partner-gateway-session'), false);
    assert.deepEqual(pageErrors, []);
  });

  let olgaToken = '';
  let olgaCookie = '';

  it('when a signed-in operator creates a personal token in the console, then the token acts as it', async () => {
    await context.clearCookies();
    await signInAtProvider('olga');
    await page.getByRole('heading', { name: 'Partners', level: 1 }).waitFor();
    await page.getByRole('link', { name: 'Operators' }).click();
    await page.getByRole('link', { name: 'Your personal tokens' }).click();
    await page.getByLabel('What the token is for').fill('laptop CLI');
    await page.getByRole('button', { name: 'Create token' }).click();
    olgaToken = await textOf(page.getByTestId('shown-once-secret'), /^pgw_/);
    olgaCookie = (await context.cookies(base)).find((cookie) => cookie.name === '__Host-partner-gateway-session')!.value;
    const me = await t.admin.inject({ method: 'GET', url: '/admin/v1/me', headers: { authorization: `Bearer ${olgaToken}` } });
    assert.deepEqual([me.statusCode, me.json().name], [200, 'olga']);
  });

  it('when the identity provider moves it to an unmapped group and it signs in again, then it is refused, and its token and its console session are refused too', async () => {
    ACCOUNTS.olga!.groups = ['staff'];
    // A new sign-in at the provider (its own cookies gone, as on another day), with the console's session cookie kept.
    const kept = (await context.cookies(base)).filter((cookie) => cookie.name === '__Host-partner-gateway-session');
    await context.clearCookies();
    await context.addCookies(kept);
    await signInAtProvider('olga', 'start');
    await page.getByRole('heading', { name: 'Your account has no role in the admin console' }).waitFor();
    await textOf(page.locator('main p').first(), /Your operator account in the gateway is disabled, its personal tokens revoked and its console sessions ended\./);
    const refused = await t.admin.inject({ method: 'GET', url: '/admin/v1/me', headers: { authorization: `Bearer ${olgaToken}` } });
    assert.equal(refused.statusCode, 401);
    assert.equal(refused.json().description_status, errors.adminUnauthorized().description);
    assert.equal(await page.evaluate(`fetch('/admin/v1/me', { credentials: 'same-origin' }).then((response) => response.status)`), 401, 'the console session the browser holds');
    await page.goto(base);
    await page.getByRole('link', { name: 'Sign in with single sign-on' }).waitFor();
    assert.equal((await t.admin.inject({ method: 'GET', url: '/admin/v1/me', headers: { cookie: `__Host-partner-gateway-session=${olgaCookie}` } })).statusCode, 401);
    const olga = (await api('/admin/v1/operators')).operators.find((operator: { name: string }) => operator.name === 'olga');
    assert.equal(olga.status, 'disabled');
  });

  it('when it is mapped again and signs in, then it is back, and a token of its is refused with sso_sign_in_required once it has not signed in for 7 days', async () => {
    ACCOUNTS.olga!.groups = ['gateway-operators'];
    await context.clearCookies();
    await signInAtProvider('olga');
    await page.getByRole('heading', { name: 'Partners', level: 1 }).waitFor();
    await textOf(page.getByTestId('signed-in-as'), /^olga \(operator, single sign-on\)$/);
    const olga = (await api('/admin/v1/operators')).operators.find((operator: { name: string }) => operator.name === 'olga');
    const { token } = await t.gateway.admin.operators.createToken(olga.id, { label: 'script' }, { id: olga.id, through: [] });
    const me = (headers: Record<string, string>) => t.admin.inject({ method: 'GET', url: '/admin/v1/me', headers });
    assert.equal((await me({ authorization: `Bearer ${token}` })).statusCode, 200);
    assert.equal((await me({ authorization: `Bearer ${olgaToken}` })).statusCode, 401, 'the token revoked by the disable stays revoked');
    clockAhead = 7 * 86_400_000 + 1_000;
    const stale = await me({ authorization: `Bearer ${token}` });
    assert.equal(stale.statusCode, 401);
    assert.match(stale.json().description_status, /sign in to the console through single sign-on again/);
    await context.clearCookies();
    await signInAtProvider('olga');
    await page.getByRole('heading', { name: 'Partners', level: 1 }).waitFor();
    assert.equal((await me({ authorization: `Bearer ${token}` })).statusCode, 200, 'a sign-in makes it work again');
    assert.deepEqual(pageErrors, []);
  });
});
