import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { chromium, type BrowserContext, type Locator, type Page } from 'playwright-core';
import { projectFile } from '../../src/project-root.js';
import { readClientCertificate } from '../../src/mtls/client-certificate.js';
import { createTestPki } from '../support/openssl-certificates.js';
import { testBackends } from '../support/test-databases.js';
import { startTestGateway, TEST_ADMIN_TOKEN, type TestGateway } from '../support/test-gateway.js';
import { textOf } from '../support/locator-text.js';
import { waitFor } from '../support/wait-for.js';

// The console's certificate section in Debian's Chromium against a real gateway on PGlite: what the page shows,
// then what the admin API holds.
const CHROMIUM = '/usr/bin/chromium';
const skip = existsSync(CHROMIUM) ? false : `${CHROMIUM} is missing: install Debian's chromium to run the console's browser tests`;
const DAY = 86_400_000;

describe('the console’s partner certificates in Chromium', { skip, timeout: 120_000 }, () => {
  const pki = createTestPki();
  const soon = pki.issue({ subject: '/O=Acme/CN=console-soon', notAfter: new Date(Date.now() + 10 * DAY) });
  const later = pki.issue({ subject: '/O=Acme/CN=console-later', notAfter: new Date(Date.now() + 90 * DAY) });
  let t: TestGateway;
  let base: string;
  let context: BrowserContext;
  let page: Page;
  let profile: string;

  before(async () => {
    if (!existsSync(projectFile('dist/console/index.html'))) {
      const { build } = await import('vite');
      await build({ configFile: projectFile('console/vite.config.mjs') });
    }
    t = await startTestGateway(testBackends()[0]!, { seedBanks: false });
    base = await t.admin.listen({ host: '127.0.0.1', port: 0 });
    profile = mkdtempSync(join(tmpdir(), 'console-certificates-'));
    context = await chromium.launchPersistentContext(profile, { executablePath: CHROMIUM, headless: true, args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run'] });
    page = context.pages()[0] ?? (await context.newPage());
    page.setDefaultTimeout(10_000);
    await page.goto(base);
    await page.getByLabel('Admin token').fill(TEST_ADMIN_TOKEN);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { name: 'Partners', level: 1 }).waitFor();
  });
  after(async () => {
    await context?.close();
    await t?.close();
    if (profile) rmSync(profile, { recursive: true, force: true });
    pki.remove();
  });

  it('registers pasted certificates (a pasted private key is refused in the page), warns from 30 days before expiry, registers a subject and removes both', async () => {
    const { login } = await t.addPartner();
    await page.goto(`${base}/#/partner/${login}`);
    await page.getByRole('heading', { name: `Partner ${login}` }).waitFor();
    await textOf(page.getByTestId('partner-certificates-none'), /No certificate or subject registered/);

    const field = page.getByLabel('PEM certificates', { exact: true });
    await field.fill(`${soon.cert}${soon.key}`);
    await page.getByRole('button', { name: 'Register certificates' }).click();
    await textOf(page.locator('#certificates-error'), /private key/);
    assert.equal((await t.gateway.admin.partners.get(login)).certificates, null, 'nothing was sent');

    await field.fill(`${soon.cert}\n${later.cert}`);
    await page.getByRole('button', { name: 'Register certificates' }).click();
    await page.locator('code').getByText(readClientCertificate(soon.cert).thumbprint).waitFor();
    await page.locator('code').getByText(readClientCertificate(later.cert).thumbprint).waitFor();
    const warnings = page.getByTestId('certificate-expiry-warning');
    await textOf(warnings, /expires in (9|10) days/);
    assert.equal(await warnings.count(), 1, 'only the certificate within 30 days is flagged');

    await page.getByLabel('Subject DN', { exact: true }).fill('cn = console-ca, o = Acme');
    await page.getByRole('button', { name: 'Register subject' }).click();
    await textOf(page.getByTestId('partner-subject-dn'), /^CN=console-ca,O=Acme$/);
    const stored = (await t.gateway.admin.partners.get(login)).certificates;
    assert.deepEqual([stored?.certificates.length, stored?.subjectDn], [2, 'CN=console-ca,O=Acme']);

    await page.getByRole('button', { name: 'Remove certificates' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Remove certificates' }).click();
    await textOf(page.getByTestId('partner-certificates-none'), /No certificate or subject registered/);
    assert.equal((await t.gateway.admin.partners.get(login)).certificates, null);
  });
});
