import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { chromium, type BrowserContext, type Locator, type Page } from 'playwright-core';
import { projectFile } from '../../src/project-root.js';
import { partnerPublicJwk, serveJwks } from '../support/partner-jwk.js';
import { testBackends } from '../support/test-databases.js';
import { startSiblingGateway, startTestGateway, TEST_ADMIN_TOKEN, type TestGateway } from '../support/test-gateway.js';
import { textOf } from '../support/locator-text.js';
import { waitFor } from '../support/wait-for.js';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { loadDefaultBanks } from '../../src/banks/default-banks.js';
import { directoryWithout } from '../support/ed807-directory.js';

/**
 * The admin console driven end to end in Debian's Chromium (never a downloaded browser), against a real
 * gateway on PGlite: every step checks what the page shows and then what the admin API returns.
 *
 * Screenshots go to docs/screenshots/ (the README shows them) when CONSOLE_SCREENSHOTS=1
 * (`npm run screenshots`), and to a temporary directory otherwise, so that a test run leaves the tree clean.
 */
const CHROMIUM = '/usr/bin/chromium';
const skip = existsSync(CHROMIUM) ? false : `${CHROMIUM} is missing: install Debian's chromium (apt-get install -y chromium; .ci/run does) to run the console's browser tests`;

const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

const KEEP_SCREENSHOTS = process.env.CONSOLE_SCREENSHOTS === '1';

describe('admin console in Chromium', { skip, timeout: 120_000 }, () => {
  let t: TestGateway;
  let base: string;
  let context: BrowserContext;
  let page: Page;
  let profile: string;
  let screenshots = '';
  const pageErrors: string[] = [];

  const api = async (method: string, url: string, payload?: unknown) => {
    const response = await t.admin.inject({ method: method as 'GET', url, headers: { authorization: `Bearer ${TEST_ADMIN_TOKEN}` }, ...(payload === undefined ? {} : { payload: payload as object }) });
    return { status: response.statusCode, body: response.body ? response.json() : undefined };
  };
  const partnerLogin = (login: string, password: string, remoteAddress = '203.0.113.7', headers: Record<string, string> = {}) =>
    t.app.inject({ method: 'POST', url: '/api/v1/login/', payload: { login, password }, remoteAddress, headers });
  const shot = (name: string, part?: Locator) =>
    part ? part.screenshot({ path: join(screenshots, `${name}.png`) }) : page.screenshot({ path: join(screenshots, `${name}.png`), fullPage: true });
  const status = () => page.locator('.announcer');
  // The registry sync's source: the May 2023 directory in which 12 banks of the shipped list no longer offer SBP.
  const heldDirectory = directoryWithout(loadDefaultBanks().slice(0, 12).map((bank) => bank.bic));
  const registry = createServer((_request, response) => response.writeHead(200, { 'content-type': 'application/xml' }).end(heldDirectory));

  before(async () => {
    if (!existsSync(projectFile('dist/console/index.html'))) {
      const { build } = await import('vite');
      await build({ configFile: projectFile('console/vite.config.mjs') });
    }
    screenshots = KEEP_SCREENSHOTS ? projectFile('docs/screenshots') : mkdtempSync(join(tmpdir(), 'console-screenshots-'));
    mkdirSync(screenshots, { recursive: true });
    await new Promise<void>((resolve) => registry.listen(0, '127.0.0.1', resolve));
    // Two reward types, so that the forms offer a choice.
    t = await startTestGateway(testBackends()[0]!, { env: { REWARD_TYPES: 'sbp,cards', BANKS_SYNC_URL: `http://127.0.0.1:${(registry.address() as AddressInfo).port}/ed807.xml`, BANKS_AUTO_ADMIT: 'true' } });
    base = await t.admin.listen({ host: '127.0.0.1', port: 0 });
    profile = mkdtempSync(join(tmpdir(), 'console-chromium-'));
    context = await chromium.launchPersistentContext(profile, {
      executablePath: CHROMIUM,
      headless: true,
      args: CHROMIUM_ARGS,
      viewport: { width: 1280, height: 860 },
      locale: 'en-GB',
      timezoneId: 'Europe/Moscow',
    });
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: base });
    page = context.pages()[0] ?? (await context.newPage());
    page.setDefaultTimeout(10_000);
    page.on('pageerror', (error) => pageErrors.push(error.message));
  });

  after(async () => {
    await context?.close();
    await t?.close();
    await new Promise<void>((resolve) => registry.close(() => resolve()));
    if (profile) rmSync(profile, { recursive: true, force: true });
    if (!KEEP_SCREENSHOTS && screenshots) rmSync(screenshots, { recursive: true, force: true });
  });

  it('is served without the token under a strict CSP, and signs in with the admin token, by keyboard', async () => {
    const response = await page.goto(base);
    assert.equal(response?.status(), 200);
    assert.match(response?.headers()['content-security-policy'] ?? '', /script-src 'self'/);
    await page.getByRole('heading', { name: 'Partner Gateway admin console' }).waitFor();
    await assertLabelled(page);
    await shot('sign-in');

    // A wrong token is refused next to the field.
    await page.getByLabel('Admin token').fill('not-the-admin-token-at-all-0123456789');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await textOf(page.locator('#admin-token-error'), /refused this token/);
    assert.equal(await page.getByLabel('Admin token').getAttribute('aria-invalid'), 'true');

    // Keyboard only: focus the field, type, Enter.
    await page.getByLabel('Admin token').fill('');
    await page.getByLabel('Admin token').focus();
    await page.keyboard.type(TEST_ADMIN_TOKEN);
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { name: 'Partners', level: 1 }).waitFor();
    assert.equal(await page.evaluate('document.activeElement?.tagName'), 'H1', 'focus moves to the new page');
    assert.equal(await page.evaluate(`sessionStorage.getItem('partner-gateway.admin-token')`), TEST_ADMIN_TOKEN);
    assert.deepEqual(await context.cookies(), [], 'no cookie: the token travels only in the Authorization header');
  });

  it('creates a partner with a generated password shown once, validating the allowlist in the form and showing API errors by their field', async () => {
    await page.getByRole('link', { name: 'New partner' }).click();
    await page.getByRole('heading', { name: 'New partner' }).waitFor();
    await assertLabelled(page);
    await page.getByLabel('Login').fill('e2e-shop');
    await page.getByLabel('IP allowlist').fill('10.0.0.5/24\n203.0.113.7\n10.0.0.300');
    // The reward types are the gateway's catalogue, ticked: sbp by default.
    const rewardChoice = page.getByRole('group', { name: 'Reward types' });
    await rewardChoice.getByRole('checkbox').nth(1).waitFor();
    assert.deepEqual(await rewardChoice.getByRole('checkbox').evaluateAll((boxes) => boxes.map((box) => `${(box as unknown as { value: string }).value}:${(box as unknown as { checked: boolean }).checked}`)), ['sbp:true', 'cards:false']);
    await page.getByRole('button', { name: 'Create partner' }).click();
    const allowlistError = await textOf(page.locator('#ipAllowlist-error'), /10\.0\.0\.5\/24 has host bits set; did you mean 10\.0\.0\.0\/24\?/);
    assert.match(allowlistError, /10\.0\.0\.300 is not an IPv4 or IPv6 address or CIDR/);
    assert.equal((await api('GET', '/admin/v1/partners/e2e-shop')).status, 404, 'nothing was sent');

    await page.getByLabel('IP allowlist').fill('10.0.0.0/24\n203.0.113.7');
    await page.getByRole('button', { name: 'Create partner' }).click();
    const secret = page.getByTestId('shown-once-secret');
    const password = (await secret.textContent())!.trim();
    assert.match(password, /^[A-Za-z0-9]{24}$/);
    await page.getByRole('button', { name: 'Copy password' }).click();
    await textOf(page.locator('.shown-once [role=status]'), /Copied/);
    assert.equal(await page.evaluate('navigator.clipboard.readText()'), password);
    await shot('partner-created');

    const created = await api('GET', '/admin/v1/partners/e2e-shop');
    assert.deepEqual({ status: created.body.status, ipAllowlist: created.body.ipAllowlist, rewardTypes: created.body.rewardTypes }, {
      status: 'active',
      ipAllowlist: ['10.0.0.0/24', '203.0.113.7/32'],
      rewardTypes: ['sbp'],
    });
    assert.equal((await partnerLogin('e2e-shop', password)).statusCode, 200, 'the password shown is the one set');

    // The page never shows the password again; a second partner with the same login is refused on its field.
    await page.getByRole('button', { name: 'I have saved it' }).click();
    await page.getByRole('heading', { name: 'Partner e2e-shop' }).waitFor();
    assert.equal(await page.getByText(password).count(), 0);
    await page.goto(`${base}/#/partners/new`);
    await page.getByLabel('Login').fill('e2e-shop');
    await page.getByLabel('IP allowlist').fill('127.0.0.1');
    await page.getByRole('button', { name: 'Create partner' }).click();
    await textOf(page.locator('#login-error'), /A partner with login e2e-shop already exists/);
  });

  it('lists partners with search, paging and each one’s last successful call', async () => {
    for (let index = 1; index <= 22; index++) await t.addPartner({ login: `acme-${String(index).padStart(2, '0')}`, ipAllowlist: [`198.51.100.${index}`] });
    await t.addPartner({ login: 'blocked-co', status: 'blocked', ipAllowlist: [] });
    await page.getByRole('link', { name: 'Partners', exact: true }).click();
    await textOf(page.locator('p.count'), /Showing 1–20 of 24 partners/);
    await page.getByRole('button', { name: 'Next page' }).click();
    await textOf(page.locator('p.count'), /Showing 21–24 of 24/);
    await page.getByLabel('Search').fill('e2e');
    await textOf(page.locator('p.count'), /Showing 1–1 of 1 partner\./);
    const row = page.getByRole('row', { name: /e2e-shop/ });
    await textOf(row, /10\.0\.0\.0\/24, 203\.0\.113\.7\/32/);
    await textOf(row, /\(login\)/);
    await page.getByLabel('Search').fill('');
    await page.getByLabel('Status').selectOption('blocked');
    await textOf(page.locator('p.count'), /of 1 partner\./);
    await textOf(page.getByRole('row', { name: /blocked-co/ }), /none \(allows no address\)/);
    await page.getByLabel('Status').selectOption('');
    await textOf(page.getByRole('row', { name: /acme-01/ }), /never/);
    await assertLabelled(page);
    await shot('partners');
  });

  it('blocks and unblocks with a confirmation, edits the allowlist and reward types, and resets the password', async () => {
    await page.goto(`${base}/#/partner/e2e-shop`);
    await page.getByRole('heading', { name: 'Partner e2e-shop' }).waitFor();
    await assertLabelled(page);

    // Escape cancels the confirmation; nothing changes.
    await page.getByRole('button', { name: 'Block partner' }).click();
    await page.getByRole('dialog', { name: 'Block e2e-shop?' }).waitFor();
    assert.equal(await page.evaluate('document.activeElement?.textContent'), 'Cancel', 'focus starts on the safe choice');
    await page.keyboard.press('Escape');
    await page.getByRole('dialog').waitFor({ state: 'hidden' });
    assert.equal((await api('GET', '/admin/v1/partners/e2e-shop')).body.status, 'active');

    await page.getByRole('button', { name: 'Block partner' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Block' }).click();
    await textOf(page.getByTestId('partner-status'), /^blocked$/);
    await textOf(status(), /Partner e2e-shop is now blocked/);
    assert.equal((await api('GET', '/admin/v1/partners/e2e-shop')).body.status, 'blocked');
    await page.getByRole('button', { name: 'Unblock partner' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Unblock' }).click();
    await textOf(page.getByTestId('partner-status'), /^active$/);
    assert.equal((await api('GET', '/admin/v1/partners/e2e-shop')).body.status, 'active');
    // The dialog stays open (and the page behind it inert) until the partner and its calls are reloaded: text
    // typed before it closes is lost.
    await page.getByRole('dialog').waitFor({ state: 'hidden' });

    // The allowlist: a typo is caught in the form, a good list is saved.
    const allowlist = page.getByLabel('Addresses and CIDRs');
    await allowlist.fill('192.0.2.0/24\n2001:db8::1/32');
    await page.getByRole('button', { name: 'Save allowlist' }).click();
    await textOf(page.locator('#ipAllowlist-error'), /2001:db8::1\/32 has host bits set; did you mean 2001:db8::\/32\?/);
    await allowlist.fill('192.0.2.0/24, 2001:db8::/32\n203.0.113.7');
    await page.getByRole('button', { name: 'Save allowlist' }).click();
    await textOf(status(), /The IP allowlist of e2e-shop was saved \(3 entries\)/);
    assert.deepEqual((await api('GET', '/admin/v1/partners/e2e-shop')).body.ipAllowlist, ['192.0.2.0/24', '2001:db8::/32', '203.0.113.7/32']);
    assert.equal(await page.getByLabel('Addresses and CIDRs').inputValue(), '192.0.2.0/24\n2001:db8::/32\n203.0.113.7/32', 'the form shows the list as saved');

    // Reward types: ticked from the catalogue, no name to mistype.
    const rewards = page.getByRole('region', { name: 'Reward types' });
    assert.equal(await rewards.getByRole('textbox').count(), 0);
    await rewards.getByLabel('cards').check();
    await page.getByRole('button', { name: 'Save reward types' }).click();
    await textOf(status(), /reward types of e2e-shop were saved: sbp, cards/);
    assert.deepEqual((await api('GET', '/admin/v1/partners/e2e-shop')).body.rewardTypes, ['cards', 'sbp']);

    await shot('partner');

    // Reset: a new password, shown once; the old one stops working.
    const oldLogin = await partnerLogin('e2e-shop', 'x'.repeat(24));
    assert.equal(oldLogin.statusCode, 401);
    await page.getByRole('button', { name: 'Reset password' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Reset password' }).click();
    const password = (await page.getByTestId('shown-once-secret').textContent())!.trim();
    assert.match(password, /^[A-Za-z0-9]{24}$/);
    assert.equal((await partnerLogin('e2e-shop', password)).statusCode, 200);
    await page.getByRole('button', { name: 'I have saved it' }).click();

    // Its recent calls: the login just made and the changes above, newest first.
    const recent = page.getByRole('table', { name: /audit entries of e2e-shop/ });
    await page.getByRole('button', { name: 'Reset password' }).waitFor();
    await page.reload();
    await textOf(recent.locator('tbody tr').first(), /login\s*success\s*200/);
    await textOf(recent, /partner\.update/);
    await textOf(recent, /wrong_password/);
  });

  it('when a partner holds a reward type the catalogue left out, then its page says so, and saving its types drops it', async () => {
    const older = await startSiblingGateway(t, { env: { REWARD_TYPES: 'sbp,cards,spb' } });
    try {
      await older.gateway.admin.partners.create({ login: 'e2e-typo', password: 'a long enough password', ipAllowlist: [], rewardTypes: ['sbp', 'spb'] });
    } finally {
      await older.close();
    }
    await page.goto(`${base}/#/partner/e2e-typo`);
    await page.getByRole('heading', { name: 'Partner e2e-typo' }).waitFor();
    await textOf(page.getByTestId('unknown-reward-types'), /spb is not in the gateway’s reward type catalogue \(REWARD_TYPES\)/);
    const rewards = page.getByRole('region', { name: 'Reward types' });
    assert.equal(await rewards.getByLabel('sbp').isChecked(), true);
    assert.equal(await rewards.getByLabel('spb').count(), 0, 'no checkbox for a type the gateway refuses');
    await page.getByRole('button', { name: 'Save reward types' }).click();
    await textOf(status(), /reward types of e2e-typo were saved: sbp/);
    await page.getByTestId('unknown-reward-types').waitFor({ state: 'detached' });
    const fixed = (await api('GET', '/admin/v1/partners/e2e-typo')).body;
    assert.deepEqual({ rewardTypes: fixed.rewardTypes, unknownRewardTypes: fixed.unknownRewardTypes }, { rewardTypes: ['sbp'], unknownRewardTypes: [] });
  });

  it('registers a partner’s keys (pasted or by URL), changes its methods and binding, and removes the keys', async () => {
    assert.equal((await api('POST', '/admin/v1/partners', { login: 'e2e-keys', password: 'a long enough password', ipAllowlist: [], rewardTypes: ['sbp'] })).status, 201);
    await page.goto(`${base}/#/partner/e2e-keys`);
    await page.getByRole('heading', { name: 'Partner e2e-keys' }).waitFor();
    await assertLabelled(page);
    await textOf(page.getByTestId('partner-auth'), /^password; bearer tokens allowed$/);
    await textOf(page.getByTestId('partner-keys-none'), /No keys registered/);

    // A private key is refused, the key named under the field, and never stored.
    const ec = await partnerPublicJwk('ES256', 'e2e-ec');
    const rsa = await partnerPublicJwk('PS256', 'e2e-rsa');
    const keysField = page.getByLabel('JWK Set', { exact: true });
    await keysField.fill(JSON.stringify({ keys: [ec.privateJwk] }));
    await page.getByRole('button', { name: 'Register keys' }).click();
    await textOf(page.locator('#keys-error'), /keys\[0\] \(kid "e2e-ec"\): contains private key material/);
    assert.equal((await api('GET', '/admin/v1/partners/e2e-keys')).body.jwks, null);

    await keysField.fill('{"keys": []}');
    await page.getByRole('button', { name: 'Register keys' }).click();
    await textOf(page.locator('#keys-error'), /holds no key/);
    await keysField.fill(JSON.stringify({ keys: [ec.jwk, rsa.jwk] }, null, 2));
    await page.getByRole('button', { name: 'Register keys' }).click();
    await textOf(status(), /2 keys of e2e-keys registered/);
    const keyTable = page.getByRole('table', { name: 'Public keys of e2e-keys' });
    await textOf(keyTable.locator('tbody tr').nth(0), new RegExp(`e2e-ec\\s*EC P-256\\s*ES256\\s*${ec.thumbprint}`));
    await textOf(keyTable.locator('tbody tr').nth(1), new RegExp(`e2e-rsa\\s*RSA 2048 bits\\s*PS256\\s*${rsa.thumbprint}`));
    assert.deepEqual((await api('GET', '/admin/v1/partners/e2e-keys')).body.jwks.keys.map((key: { thumbprint: string }) => key.thumbprint), [ec.thumbprint, rsa.thumbprint]);

    // By URL: fetched once, then shown with the time of the fetch.
    const remote = await partnerPublicJwk('EdDSA', 'e2e-remote');
    const server = await serveJwks(() => ({ text: JSON.stringify({ keys: [remote.jwk] }) }));
    try {
      await page.getByLabel('The https URL where the partner publishes them').check();
      await page.getByLabel('JWK Set URL').fill(server.url);
      await page.getByRole('button', { name: 'Register keys' }).click();
      await textOf(status(), /1 key of e2e-keys registered/);
      await textOf(page.getByTestId('partner-jwks-uri'), new RegExp(`^${server.url.replace(/[.]/g, '\\.')}$`));
      await textOf(keyTable.locator('tbody tr').first(), new RegExp(`e2e-remote\\s*OKP Ed25519\\s*EdDSA\\s*${remote.thumbprint}`));
      await textOf(page.getByRole('region', { name: 'Public keys' }), /Last fetched\s*\d{4}-\d\d-\d\d \d\d:\d\d:\d\d/);
      const jwks = (await api('GET', '/admin/v1/partners/e2e-keys')).body.jwks;
      assert.equal(jwks.jwksUri, server.url);
      assert.ok(jwks.fetchedAt);
    } finally {
      await server.close();
    }

    // Methods and binding: none ticked is caught in the form; the change is saved and shown.
    const password = page.getByRole('checkbox', { name: /password: the API password/ });
    const privateKeyJwt = page.getByRole('checkbox', { name: /private_key_jwt: an assertion/ });
    await password.uncheck();
    await page.getByRole('button', { name: 'Save authentication' }).click();
    await textOf(page.locator('#authMethods-error'), /Tick at least one method/);
    assert.deepEqual((await api('GET', '/admin/v1/partners/e2e-keys')).body.authMethods, ['password']);
    await privateKeyJwt.check();
    await page.getByRole('checkbox', { name: /Require DPoP-bound tokens/ }).check();
    await page.getByRole('button', { name: 'Save authentication' }).click();
    await textOf(status(), /authentication of e2e-keys was saved: private_key_jwt, bound tokens required/);
    await textOf(page.getByTestId('partner-auth'), /^private_key_jwt; DPoP-bound tokens required$/);
    const changed = (await api('GET', '/admin/v1/partners/e2e-keys')).body;
    assert.deepEqual([changed.authMethods, changed.requireSenderConstrainedTokens], [['private_key_jwt'], true]);
    assert.equal(await page.getByRole('checkbox', { name: /private_key_jwt: an assertion/ }).isChecked(), true, 'the form shows the methods as saved');
    await shot('partner-keys', page.getByRole('region', { name: 'Public keys' }));

    // Removing the keys asks first.
    await page.getByRole('button', { name: 'Remove keys' }).click();
    await page.getByRole('dialog', { name: 'Remove the keys of e2e-keys?' }).getByRole('button', { name: 'Remove keys' }).click();
    await textOf(status(), /The keys of e2e-keys were removed/);
    await textOf(page.getByTestId('partner-keys-none'), /No keys registered/);
    await page.getByRole('dialog').waitFor({ state: 'hidden' });
    assert.equal((await api('GET', '/admin/v1/partners/e2e-keys')).body.jwks, null);
  });

  it('imports a bank file: every bad row is listed before anything is applied, then a good file is previewed and applied', async () => {
    await page.getByRole('link', { name: 'Banks' }).click();
    await page.getByRole('heading', { name: 'Banks', level: 1 }).waitFor();
    await textOf(page.getByRole('heading', { name: /The list/ }), /\(39\)/);
    await assertLabelled(page);

    const bad = 'bic,name\n044525225,Сбербанк\n4452522,Банк без нуля\n044525974,\n049999999,Банк Тест\n';
    await page.getByLabel('File', { exact: true }).setInputFiles({ name: 'banks.csv', mimeType: 'text/csv', buffer: Buffer.from(bad) });
    await page.getByRole('button', { name: 'Preview import' }).click();
    await textOf(page.locator('#import-file-error'), /banks\.csv has 2 problems; nothing was changed/);
    const rows = page.locator('ul.row-errors li');
    assert.deepEqual(await rows.allTextContents(), ['line 3.bic: must be a string of 9 digits starting with 04', 'line 4.name: must be a non-empty string']);
    assert.equal(await page.getByRole('button', { name: 'Apply import' }).count(), 0, 'a file with bad rows cannot be applied');
    assert.equal((await api('GET', '/admin/v1/banks')).body.banks.length, 39);
    await shot('banks-import-errors', page.getByRole('region', { name: 'Import a file' }));

    const good = 'bic,name\n044525225,Сбербанк России\n049999999,Банк Тест\n';
    await page.getByLabel('File', { exact: true }).setInputFiles({ name: 'banks.csv', mimeType: 'text/csv', buffer: Buffer.from(good) });
    await page.getByRole('radio', { name: /Merge/ }).check();
    await page.getByRole('button', { name: 'Preview import' }).click();
    await textOf(page.getByTestId('import-summary'), /2 banks in the file: 1 to add, 1 to change, 0 to remove/);
    await textOf(page.getByRole('region', { name: /Preview of banks\.csv \(merge\)/ }), /049999999/);
    assert.equal((await api('GET', '/admin/v1/banks')).body.banks.length, 39, 'the preview changed nothing');
    await shot('banks-import-preview', page.getByRole('region', { name: 'Import a file' }));
    await page.getByRole('button', { name: 'Apply import' }).click();
    await textOf(status(), /Imported 2 banks: 1 added, 1 changed, 0 removed/);
    const banks = (await api('GET', '/admin/v1/banks')).body.banks;
    assert.equal(banks.length, 40);
    assert.deepEqual([banks[0].name, banks.at(-1).bic], ['Сбербанк России', '049999999']);
    await textOf(page.getByRole('heading', { name: /The list/ }), /\(40\)/);
  });

  it('exports the list as CSV for a spreadsheet, and imports the edited file back as Curate: one changed name previewed, a stray BIC listed, nothing added', async () => {
    const downloading = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Export CSV for a spreadsheet' }).click();
    const download = await downloading;
    assert.match(download.suggestedFilename(), /^banks-v\d+\.csv$/);
    const text = readFileSync(await download.path(), 'utf8');
    assert.ok(text.startsWith('\ufeffbic;name;nameEn;sbpMemberId;nameSource;nameEnSource;sbpMemberIdSource\r\n'), 'a BOM and ; for Excel');
    const edited = `${text.replace(/^(044525974;)([^;\r\n]*)/m, '$1$2 правка')}049999998;Чужой банк;;;;;\r\n`;
    await page.getByLabel('File', { exact: true }).setInputFiles({ name: 'banks-edited.csv', mimeType: 'text/csv', buffer: Buffer.from(edited) });
    await page.getByRole('radio', { name: /Curate/ }).check();
    await page.getByRole('button', { name: 'Preview import' }).click();
    await textOf(page.getByTestId('import-summary'), /41 banks in the file: 0 to add, 1 to change, 0 to remove/);
    await textOf(page.getByTestId('import-unknown'), /Not in the list, not added \(1\): 049999998/);
    await page.getByRole('button', { name: 'Apply import' }).click();
    await textOf(status(), /Imported 41 banks: 0 added, 1 changed, 0 removed/);
    const banks = (await api('GET', '/admin/v1/banks')).body.banks as Array<{ bic: string; name: string }>;
    assert.equal(banks.length, 40);
    assert.match(banks.find((bank) => bank.bic === '044525974')!.name, / правка$/);
  });

  it('reorders, adds and removes banks through the same API', async () => {
    const before = (await api('GET', '/admin/v1/banks')).body.banks.map((bank: { bic: string }) => bank.bic);
    await page.getByRole('button', { name: 'Move Сбербанк России down' }).click();
    await textOf(status(), /Сбербанк России moved to position 2/);
    // The page's CSP refuses waitForFunction's string evaluation: poll the focused element instead.
    await waitFor(async () => (await page.evaluate('document.activeElement?.id')) === 'move-down-044525225', { message: 'focus to follow the moved bank, on its new row' });
    const after = (await api('GET', '/admin/v1/banks')).body.banks.map((bank: { bic: string }) => bank.bic);
    assert.deepEqual(after, [before[1], before[0], ...before.slice(2)]);

    // A bad BIC is refused by the API, next to the BIC field.
    await page.getByLabel('BIC', { exact: true }).fill('12345');
    await page.getByLabel('Name', { exact: true }).fill('Новый банк');
    await page.getByRole('button', { name: 'Add bank' }).click();
    await textOf(page.locator('#bank-bic-error'), /must be a string of 9 digits starting with 04/);
    await page.getByLabel('BIC', { exact: true }).fill('044030001');
    await page.getByRole('button', { name: 'Add bank' }).click();
    await textOf(status(), /Новый банк \(044030001\) was added/);
    assert.equal((await api('GET', '/admin/v1/banks')).body.banks.at(-1).bic, '044030001');

    // The 41st bank is on the second page: the search finds it.
    await page.getByLabel('Search by name, BIC or member id').fill('044030001');
    await page.getByRole('button', { name: 'Remove Новый банк' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Remove' }).click();
    await textOf(status(), /Новый банк \(044030001\) was removed/);
    await page.getByLabel('Search by name, BIC or member id').fill('');
    assert.ok(!(await api('GET', '/admin/v1/banks')).body.banks.some((bank: { bic: string }) => bank.bic === '044030001'));
  });

  it('when an operator searches, moves a bank to a position, edits its member id and restores an earlier version from the history, then each is a version and the restore asks first', async () => {
    await page.getByLabel('Search by name, BIC or member id').fill('100000000004');
    await textOf(page.getByRole('status').filter({ hasText: 'found' }), /1 found/);
    assert.equal(await page.locator('table.banks tbody tr').count(), 1);
    const tbank = (await page.locator('table.banks tbody th').first().textContent())!;
    await page.getByRole('button', { name: `Edit ${tbank}` }).click();
    const dialog = page.getByRole('dialog', { name: new RegExp(`Edit ${tbank}`) });
    await dialog.getByLabel('Position').fill('1');
    await dialog.getByLabel('SBP member id').fill('100000000999');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await textOf(status(), /was saved as version \d+/);
    const banks = (await api('GET', '/admin/v1/banks')).body;
    assert.deepEqual([banks.banks[0].name, banks.banks[0].sbpMemberId], [tbank, '100000000999']);
    await page.getByLabel('Search by name, BIC or member id').fill('');
    await shot('banks', page.getByRole('region', { name: /The list/ }));

    await page.getByRole('tab', { name: 'History' }).click();
    await page.getByRole('button', { name: 'Show changes' }).first().click();
    await textOf(page.getByRole('region', { name: /Version \d+: changes from version/ }), /Member id: 100000000004 → 100000000999/);
    await shot('banks-history');
    const first = (await api('GET', '/admin/v1/banks/versions?limit=200')).body.versions.at(-1).number;
    await page.getByRole('button', { name: 'Restore…' }).last().click();
    const confirm = page.getByRole('dialog', { name: `Restore version ${first}?` });
    await textOf(confirm, /becomes what it was in version/);
    await confirm.getByRole('button', { name: 'Restore' }).click();
    await textOf(status(), new RegExp(`Version ${first} was restored as version ${banks.version + 1}`));
    const restored = (await api('GET', '/admin/v1/banks')).body.banks;
    assert.deepEqual([restored.length, restored[0].name], [39, 'Сбербанк']);
    await page.getByRole('tab', { name: 'List' }).click();
  });

  it('when a registry sync would remove more banks than allowed, then the Registry sync tab previews it, holds it, shows its every change, and applies it only after an approval that asks first', async () => {
    const before = (await api('GET', '/admin/v1/banks')).body;
    await page.getByRole('tab', { name: 'Registry sync' }).click();
    await page.getByRole('button', { name: 'Preview a sync now' }).click();
    const preview = page.getByRole('region', { name: /Preview \(dry run\): 164 added, \d+ changed, 12 removed/ });
    await textOf(preview, /The removal guard will hold this run: it would remove 12 banks \(more than BANKS_SYNC_MAX_REMOVALS, 10\)/);
    assert.equal((await api('GET', '/admin/v1/banks')).body.version, before.version, 'a preview changes nothing');
    await preview.getByRole('button', { name: 'Run the sync…' }).click();
    await page.getByRole('dialog', { name: 'Run the registry sync now?' }).getByRole('button', { name: 'Run' }).click();
    await textOf(status(), /Sync run \d+: held \(pending\) — it would remove 12 banks/);
    const held = page.getByRole('region', { name: /Held sync run \d+: waiting for a decision/ });
    await textOf(held, /Removed/);
    assert.equal((await api('GET', '/admin/v1/banks')).body.version, before.version, 'held, not applied');
    await shot('banks-sync');
    await held.getByRole('button', { name: 'Approve…' }).click();
    const confirm = page.getByRole('dialog', { name: /Approve held sync run \d+\?/ });
    await textOf(confirm, /12 banks stop being offered to partners/);
    await confirm.getByRole('button', { name: 'Approve' }).click();
    await textOf(status(), new RegExp(`was approved and applied as version ${before.version + 1}`));
    const after = (await api('GET', '/admin/v1/banks')).body;
    assert.equal(after.banks.length, 39 - 12 + 164);
    const audit = (await api('GET', '/admin/v1/audit?action=banks.sync.approve')).body.entries;
    assert.equal(audit[0].operator.name, 'bootstrap');
    await page.getByRole('tab', { name: 'List' }).click();
  });

  it('rotates a key after a confirmation, and the API then has the new key active and the old one retired', async () => {
    const oldKid = (await api('GET', '/admin/v1/keys')).body.keys.find((key: { use: string; active: boolean }) => key.use === 'sig' && key.active).kid;
    await page.getByRole('link', { name: 'Keys' }).click();
    await page.getByRole('heading', { name: 'Keys', level: 1 }).waitFor();
    await textOf(page.getByRole('row', { name: new RegExp(oldKid) }), /active/);
    await page.getByRole('button', { name: 'Rotate the signing key…' }).click();
    await textOf(page.getByRole('dialog'), /keeps verifying the tokens it signed/);
    await page.getByRole('dialog').getByRole('button', { name: 'Rotate now' }).click();
    const message = await textOf(status(), /A new signing key is active: \S+\./);
    const newKid = /active: (\S+)\./.exec(message)![1]!;
    const keys = (await api('GET', '/admin/v1/keys')).body.keys as Array<{ kid: string; use: string; active: boolean; usableUntil: string | null }>;
    assert.equal(keys.find((key) => key.use === 'sig' && key.active)?.kid, newKid);
    assert.equal(keys.find((key) => key.kid === oldKid)?.active, false);
    assert.ok(keys.find((key) => key.kid === oldKid)?.usableUntil);
    await textOf(page.getByRole('row', { name: new RegExp(oldKid) }), /retired/);
    await textOf(page.getByRole('row', { name: new RegExp(newKid) }), /active/);
    await shot('keys');
  });

  it('revokes a key after a confirmation, and the key is gone from the API and the JWKS', async () => {
    const retired = (await api('GET', '/admin/v1/keys')).body.keys.find((key: { use: string; active: boolean }) => key.use === 'sig' && !key.active).kid as string;
    await page.getByRole('button', { name: `Revoke key ${retired}` }).click();
    await textOf(page.getByRole('dialog'), /leaves the JWKS at once/);
    await page.getByRole('dialog').getByRole('button', { name: 'Revoke now' }).click();
    await textOf(status(), new RegExp(`The signing key ${retired} is revoked\\.`));
    assert.ok(!(await api('GET', '/admin/v1/keys')).body.keys.some((key: { kid: string }) => key.kid === retired));
    // The status line can show before the table re-renders from the reloaded list: wait for the row to go.
    await page.getByRole('row', { name: new RegExp(retired) }).waitFor({ state: 'detached', timeout: 5_000 });
    assert.equal(await page.getByRole('row', { name: new RegExp(retired) }).count(), 0);
  });

  it('searches the audit trail with filters and pages through it', async () => {
    await page.getByRole('link', { name: 'Audit' }).click();
    await page.getByRole('heading', { name: 'Audit', level: 1 }).waitFor();
    await assertLabelled(page);
    // Unfiltered: everything the steps above did, newest first.
    const everything = page.getByRole('table', { name: 'Audit entries, newest first' });
    await textOf(everything.locator('tbody tr').first(), /key\.revoke/);
    await textOf(everything, /key\.rotate/);
    await textOf(everything, /banks\.import/);
    await shot('audit');

    for (let index = 0; index < 30; index++) await partnerLogin('e2e-shop', `wrong password number ${index}`);
    await page.getByLabel('Partner').fill('e2e-shop');
    await page.getByLabel('Outcome').selectOption('failure');
    await page.getByLabel('Per page').selectOption('25');
    await page.getByRole('button', { name: 'Search' }).click();
    await page.waitForURL(/#\/audit\?partner=e2e-shop&outcome=failure&limit=25$/);
    const table = page.getByRole('table', { name: 'Audit entries, newest first' });
    const expected = (await api('GET', '/admin/v1/audit?partner=e2e-shop&outcome=failure&limit=25')).body;
    // The total of the search, not the page size.
    assert.ok(expected.total.count >= 30);
    await textOf(page.locator('p.count'), new RegExp(`^${expected.total.count} entries match; this page shows 25, the newest\\.$`));
    const shownTimes = await table.locator('tbody tr td:first-child time').evaluateAll((times) => times.map((time) => time.getAttribute('datetime')));
    assert.deepEqual(shownTimes, expected.entries.map((entry: { at: string }) => entry.at));
    for (const text of await table.locator('tbody tr').allTextContents()) assert.match(text, /failure/);

    await page.getByRole('link', { name: 'Older entries' }).click();
    await page.waitForURL(new RegExp(`cursor=${expected.nextCursor}$`));
    const older = (await api('GET', `/admin/v1/audit?partner=e2e-shop&outcome=failure&limit=25&cursor=${expected.nextCursor}`)).body.entries;
    await textOf(page.locator('p.count'), new RegExp(`^${expected.total.count} entries match; this page shows ${older.length}, older\\.$`));
    assert.equal(await table.locator('tbody tr').count(), older.length);
    assert.ok(BigInt(older[0].id) < BigInt(expected.entries.at(-1).id), 'the older page starts below the first');
    await page.goBack();
    await textOf(page.locator('p.count'), /this page shows 25, the newest\.$/);

    // A partner quotes the X-Request-Id of a call: the request id filter finds its entry, and the entry links to it.
    const quoted = await partnerLogin('e2e-shop', 'a wrong password again', '203.0.113.7', { 'x-request-id': 'e2e-ticket-0042' });
    assert.equal(quoted.headers['x-request-id'], 'e2e-ticket-0042');
    await page.getByLabel('Outcome').selectOption('');
    await page.getByLabel('Partner').fill('');
    await page.getByLabel('Request id (X-Request-Id)').fill('e2e-ticket-0042');
    await page.getByRole('button', { name: 'Search' }).click();
    await page.waitForURL(/requestId=e2e-ticket-0042/);
    await textOf(page.locator('p.count'), /^1 entry matches\.$/);
    await textOf(table.locator('tbody tr'), /e2e-ticket-0042\s*login\s*failure\s*401[^]*wrong_password/);
    assert.equal(await table.getByRole('link', { name: 'e2e-ticket-0042' }).getAttribute('href'), '#/audit?requestId=e2e-ticket-0042');
    await page.getByLabel('Request id (X-Request-Id)').fill('');

    // A reason filter, and an impossible range refused next to its field.
    await page.getByLabel('Reason').fill('wrong_password');
    await page.getByLabel('Outcome').selectOption('');
    await page.getByRole('button', { name: 'Search' }).click();
    await page.waitForURL(/reason=wrong_password/);
    for (const text of await table.locator('tbody tr').allTextContents()) assert.match(text, /wrong_password/);
    await page.getByLabel('From').fill('2030-01-02T10:00');
    await page.getByLabel('To (before)').fill('2030-01-01T10:00');
    await page.getByRole('button', { name: 'Search' }).click();
    await textOf(page.locator('#audit-to-error'), /must be later than From/);
  });

  it('signs out, forgets the token, and asks for it again when the API refuses it', async () => {
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByRole('heading', { name: 'Partner Gateway admin console' }).waitFor();
    assert.equal(await page.evaluate(`sessionStorage.getItem('partner-gateway.admin-token')`), null);
    // A token that stops working (changed on the server) sends the operator back to sign in.
    await page.evaluate(`sessionStorage.setItem('partner-gateway.admin-token', 'an-old-token-that-no-longer-works-0000')`);
    await page.goto(`${base}/#/banks`);
    await page.reload();
    await textOf(page.getByRole('status'), /refused the token/);
    assert.equal(await page.evaluate(`sessionStorage.getItem('partner-gateway.admin-token')`), null);
    assert.deepEqual(pageErrors, [], 'no script error on any page');
  });
});


/** Every visible form control has an accessible name (a label, or aria-label for icon buttons). */
async function assertLabelled(page: Page): Promise<void> {
  // A string, evaluated in the page: this file is compiled without the DOM's types.
  const unlabelled = await page.evaluate(`[...document.querySelectorAll('input, select, textarea, button')]
    .filter((element) => element.offsetParent !== null)
    .filter((element) => !((element.labels && element.labels.length > 0) || element.getAttribute('aria-label') || (element.tagName === 'BUTTON' && element.textContent.trim())))
    .map((element) => element.outerHTML.slice(0, 120))`);
  assert.deepEqual(unlabelled, [], 'controls without a label');
}
