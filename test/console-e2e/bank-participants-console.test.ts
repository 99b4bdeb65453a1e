import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { projectFile } from '../../src/project-root.js';
import { testBackends } from '../support/test-databases.js';
import { startTestGateway, TEST_ADMIN_TOKEN, type TestGateway } from '../support/test-gateway.js';
import { textOf } from '../support/locator-text.js';
import { waitFor } from '../support/wait-for.js';

// The console's participant list tab in Debian's Chromium against a real gateway on PGlite: a list read by the admin
// API leaves a name match, which the operator confirms in the page; the bank list then shows the member id's source.
const CHROMIUM = '/usr/bin/chromium';
const skip = existsSync(CHROMIUM) ? false : `${CHROMIUM} is missing: install Debian's chromium to run the console's browser tests`;

describe('the console’s participant list tab in Chromium', { skip, timeout: 120_000 }, () => {
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
    base = await t.admin.listen({ host: '127.0.0.1', port: 0 });
    profile = mkdtempSync(join(tmpdir(), 'console-participants-'));
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

  it('when a list leaves a name match, then the tab shows the reading and the match, and confirming it sets the member id, sourced from the participants', async () => {
    const [sber, vtb] = await t.gateway.admin.banks.list();
    const list = JSON.stringify([
      { memberId: vtb!.sbpMemberId, name: vtb!.name, bic: vtb!.bic },
      { memberId: '222222222222', name: `ПАО «${sber!.name.toUpperCase()}»` },
    ]);
    await t.gateway.admin.bankParticipants.importFile(Buffer.from(list), 'application/json', undefined);
    await page.goto(`${base}/#/banks`);
    await page.getByRole('tab', { name: 'Member ids' }).click();
    await textOf(page.getByRole('heading', { name: /Participant list:/ }), /1 name matches to confirm/);
    await textOf(page.locator('#participants-last'), /2 participants, 1 matched by BIC, 0 by\s+member id; 0 participants and \d+ banks unmatched/);
    await textOf(page.getByRole('row', { name: new RegExp(sber!.bic) }), /222222222222/);
    await page.getByRole('button', { name: `Confirm ${sber!.name}` }).click();
    await textOf(page.getByRole('heading', { name: /Participant list:/ }), /0 name matches to confirm/);
    const shown = await waitFor(async () => (await t.gateway.admin.banks.list()).find((bank) => bank.bic === sber!.bic && bank.sbpMemberId === '222222222222'));
    assert.deepEqual([shown.sources.sbpMemberId?.source, shown.sources.sbpMemberId?.by.name], ['participants', 'bootstrap']);
    await page.getByRole('tab', { name: 'List', exact: true }).click();
    await textOf(page.getByRole('row', { name: new RegExp(sber!.bic) }), /222222222222 participants/);
  });
});
