import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { ADMIN_PARTNER_INVITATIONS_PATH, banksPath } from '@partner-gateway/contract/paths';
import type { InvitationCreated } from '@partner-gateway/contract/partner-users';
import { projectFile } from '../../src/project-root.js';
import { startListeningGateway } from '../support/key-partner.js';
import { CLIENT_ASSERTION_TYPE, FORM_HEADERS, clientAssertion, form, registerKeys, testKey, type TestKey } from '../support/oauth-client.js';
import { testBackends } from '../support/test-databases.js';
import { TEST_ADMIN_TOKEN, type TestGateway } from '../support/test-gateway.js';
import { textOf } from '../support/locator-text.js';
import { waitFor } from '../support/wait-for.js';
import { receiver } from '../support/webhook-receiver.js';

// Issue 37's whole flow in Debian's Chromium with a virtual WebAuthn authenticator (the DevTools protocol): an
// operator invites a partner admin, who registers a passkey, signs out and in again, rotates the private_key_jwt key
// with a one-hour overlap while a client keeps taking tokens with the old key, finds a refused banks call by its
// request id with the reason in words, registers a webhook endpoint and sees a delivery, and invites a developer
// who cannot rotate anything. Passkeys need a host name, so the portal is reached as http://localhost.
const CHROMIUM = '/usr/bin/chromium';
const skip = existsSync(CHROMIUM) ? false : `${CHROMIUM} is missing: install Debian's chromium to run the portal's browser test`;

describe('the partner portal in Chromium with a passkey', { skip, timeout: 180_000 }, () => {
  let t: TestGateway & { url: string; publicUrl: string };
  let browser: Browser;
  let clock = Date.now();
  const hooks = receiver();
  let hookUrl: string;

  before(async () => {
    if (!existsSync(projectFile('dist/portal/index.html'))) {
      const { build } = await import('vite');
      await build({ configFile: projectFile('console/portal.vite.config.mjs') });
    }
    t = await startListeningGateway(testBackends()[0]!, { now: () => clock, env: { WEBHOOK_POLL_MS: '50', WEBHOOK_RETRY_BASE_MS: '20' } }, 'localhost');
    hookUrl = await hooks.listen();
    browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run'] });
  });
  after(async () => {
    await browser?.close();
    await t?.close();
    await hooks.close();
  });

  /** A new browser profile with its own platform authenticator (user verification on), at `url`. */
  async function personAt(url: string): Promise<{ context: BrowserContext; page: Page }> {
    const context = await browser.newContext();
    const page = await context.newPage();
    page.setDefaultTimeout(15_000);
    const cdp = await context.newCDPSession(page);
    await cdp.send('WebAuthn.enable');
    await cdp.send('WebAuthn.addVirtualAuthenticator', {
      options: { protocol: 'ctap2', transport: 'internal', hasResidentKey: true, hasUserVerification: true, isUserVerified: true, automaticPresenceSimulation: true },
    });
    await page.goto(url);
    return { context, page };
  }

  it('takes a partner admin from an invitation to a rotated key, a refused call found by request id, a delivered webhook and a developer who cannot rotate', async () => {
    const partner = await t.addPartner();
    const oldKey = await testKey();
    await registerKeys(t.gateway, partner.login, [oldKey]);
    const invitation = await t.admin.inject({
      method: 'POST',
      url: ADMIN_PARTNER_INVITATIONS_PATH.replace(':login', partner.login),
      headers: { authorization: `Bearer ${TEST_ADMIN_TOKEN}` },
      payload: { name: 'anna@acme.example', role: 'partner-admin' },
    });
    assert.equal(invitation.statusCode, 201, invitation.body);
    const link = (invitation.json() as InvitationCreated).url;
    assert.ok(link.startsWith(`${t.publicUrl}/portal/#invitation=`), link);

    const { page } = await personAt(link);
    await textOf(page.getByTestId('invitation'), /anna@acme\.example · .* · partner-admin/);
    await page.getByRole('button', { name: 'Create a passkey' }).click();
    await textOf(page.getByTestId('signed-in-as'), /anna@acme\.example/);
    await page.getByRole('button', { name: 'Sign out', exact: true }).click();
    await page.getByRole('button', { name: 'Sign in with a passkey' }).click();
    await textOf(page.getByTestId('signed-in-as'), new RegExp(`anna@acme\\.example · ${partner.login} · partner-admin`));

    // A client keeps taking tokens with the old key throughout the rotation.
    // The assertion names the token endpoint by PUBLIC_URL (localhost); the request goes to the listener's address.
    const takeToken = async (key: TestKey) =>
      (
        await fetch(`${t.url}/api/v1/oauth/token`, {
          method: 'POST',
          headers: FORM_HEADERS,
          body: form({ grant_type: 'client_credentials', client_assertion_type: CLIENT_ASSERTION_TYPE, client_assertion: await clientAssertion(key, partner.login, t.publicUrl, { now: clock }) }),
        })
      ).status;
    const outcomes: number[] = [];
    let rotating = true;
    const client = (async () => {
      while (rotating) outcomes.push(await takeToken(oldKey));
    })();

    await page.getByLabel('Endpoint URL').fill(`${hookUrl}?partner=${partner.login}`);
    await page.getByRole('button', { name: 'Register', exact: true }).click();
    await textOf(page.getByTestId('webhook-material'), /whpk_/);

    const newKey: TestKey = await testKey();
    await page.getByLabel('New public key (JWK)').fill(JSON.stringify(newKey.publicJwk));
    await page.getByLabel('Old keys keep working for (hours)').fill('1');
    await page.getByRole('button', { name: 'Rotate', exact: true }).click();
    await textOf(page.getByTestId('keys'), new RegExp(`${oldKey.kid} \\(ES256\\) · ends`));
    await waitFor(() => outcomes.length >= 20);
    rotating = false;
    await client;
    assert.deepEqual([...new Set(outcomes)], [200], 'every token request with the old key succeeded');
    assert.equal(await takeToken(newKey), 200);

    // The dispatcher looks for ending credentials once a minute: a minute passes, and the old key's end is announced.
    clock += 61_000;
    await waitFor(() => hooks.requests.some((request) => request.url === `/hooks?partner=${partner.login}`));
    await page.getByRole('button', { name: 'Deliveries' }).click();
    await textOf(page.getByTestId('deliveries'), /delivered/);

    const refused = await fetch(`${t.url}${banksPath('provider')}?partnerName=${partner.login}&partnerPassword=not-a-jwe&useAuthByCert=Y`, { method: 'POST' });
    assert.ok(refused.status >= 400);
    const requestId = refused.headers.get('x-request-id')!;
    await page.getByLabel('Request id').fill(requestId);
    await page.getByRole('button', { name: 'Find' }).click();
    const row = await textOf(page.getByTestId('calls'), new RegExp(requestId));
    assert.match(row, /banks/);
    assert.match(row, /failure/);
    assert.match(row, /[a-z]{4,} [a-z]{3,}/, 'the reason in words');

    await page.getByLabel('Name (e-mail)').fill('dev@acme.example');
    await page.getByRole('button', { name: 'Invite', exact: true }).click();
    const developerLink = await textOf(page.getByTestId('invitation-link'), /#invitation=/);
    const developer = await personAt(developerLink.trim());
    await developer.page.getByRole('button', { name: 'Create a passkey' }).click();
    await textOf(developer.page.getByTestId('signed-in-as'), /dev@acme\.example · .* · partner-developer/);
    await textOf(developer.page.getByTestId('read-only'), /partner-admin changes/);
    await textOf(developer.page.getByTestId('keys'), new RegExp(newKey.kid));
    assert.equal(await developer.page.getByRole('button', { name: /Rotate|New API password|Register|Invite|Remove/ }).count(), 0);
    const forced = await developer.page.evaluate(async (jwk) => {
      const session = (await (await fetch('/portal/api/session')).json()) as { csrfToken: string };
      const response = await fetch('/api/v1/self/keys', { method: 'POST', headers: { 'content-type': 'application/json', 'x-csrf-token': session.csrfToken }, body: JSON.stringify({ key: jwk }) });
      return response.status;
    }, (await testKey()).publicJwk);
    assert.equal(forced, 403, 'the developer cannot rotate through the API either');
    await page.reload();
    await textOf(page.getByTestId('people'), /dev@acme\.example · partner-developer · 1/);
  });
});
