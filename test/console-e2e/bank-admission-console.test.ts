import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { chromium, type BrowserContext, type Locator, type Page } from 'playwright-core';
import { projectFile } from '../../src/project-root.js';
import { ED807_MAY_2023 } from '../support/ed807-directory.js';
import { testBackends } from '../support/test-databases.js';
import { startTestGateway, TEST_ADMIN_TOKEN, type TestGateway } from '../support/test-gateway.js';
import { textOf } from '../support/locator-text.js';
import { waitFor } from '../support/wait-for.js';

// The console's review queue in Debian's Chromium against a real gateway on PGlite, after the May 2023 merge:
// what the page shows, then what the admin API holds.
const CHROMIUM = '/usr/bin/chromium';
const skip = existsSync(CHROMIUM) ? false : `${CHROMIUM} is missing: install Debian's chromium to run the console's browser tests`;

describe('the console’s bank review queue in Chromium', { skip, timeout: 120_000 }, () => {
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
    t = await startTestGateway(testBackends()[0]!);
    await t.gateway.admin.banks.importFile(readFileSync(ED807_MAY_2023), 'application/xml', undefined);
    base = await t.admin.listen({ host: '127.0.0.1', port: 0 });
    profile = mkdtempSync(join(tmpdir(), 'console-admission-'));
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
  });

  it('when an operator selects queued banks, then they are admitted as one version (one under an edited name), and another is excluded with a reason', async () => {
    await page.goto(`${base}/#/banks`);
    await page.getByRole('tab', { name: /Review queue \(164\)/ }).click();
    await textOf(page.getByRole('heading', { name: /Review queue:/ }), /164 pending, 11 excluded/);
    const queue = await t.gateway.admin.bankAdmissions.queue();
    const [first, second, third] = queue.banks.filter((bank) => bank.state === 'pending');
    assert.equal(await page.getByLabel(`Display name of ${first!.bic}`).inputValue(), first!.suggestedName);
    await textOf(page.getByRole('row', { name: /044525444/ }), /Excluded \(rule “НКО”\): non-bank credit organisation/);

    await page.getByLabel(`Display name of ${second!.bic}`).fill('Второй банк');
    await page.getByLabel(`Select ${first!.bic}`).check();
    await page.getByLabel(`Select ${second!.bic}`).check();
    await page.getByRole('button', { name: 'Admit 2 selected' }).click();
    await textOf(page.getByRole('heading', { name: /Review queue:/ }), /162 pending, 11 excluded/);
    const { banks, version } = await t.gateway.admin.banks.list().then(async (list) => ({ banks: list, version: await t.gateway.admin.banks.currentVersion() }));
    assert.deepEqual(banks.slice(-2).map((bank) => [bank.bic, bank.name]), [[first!.bic, first!.suggestedName], [second!.bic, 'Второй банк']]);
    assert.equal(version, 3, 'one version for both');

    await page.getByLabel(`Select ${third!.bic}`).check();
    await page.getByLabel('Reason to exclude').fill('closing down');
    await page.getByRole('button', { name: 'Exclude 1 selected' }).click();
    await textOf(page.getByRole('row', { name: new RegExp(third!.bic) }), /Excluded \(BIC\): closing down/);
    await page.getByLabel(`Select ${third!.bic}`).check();
    await page.getByRole('button', { name: 'Lift exclusion of 1' }).click();
    await textOf(page.getByRole('row', { name: new RegExp(third!.bic) }), /Pending/);
  });
});
