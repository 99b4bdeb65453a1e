import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { chromium, type BrowserContext, type Locator, type Page } from 'playwright-core';
import { projectFile } from '../../src/project-root.js';
import { testBackends } from '../support/test-databases.js';
import { startTestGateway, TEST_ADMIN_TOKEN, type TestGateway, type TestOperator } from '../support/test-gateway.js';
import { textOf } from '../support/locator-text.js';
import { waitFor } from '../support/wait-for.js';

/**
 * The control screens an approver can judge (issue 33), in Debian's Chromium against a real gateway: a change
 * held for approval reads "sent for approval" with a link, those who may decide see the pending count, the
 * approver sees the History tab's diff with its counts and confirms before it is applied; the audit page folds
 * long details; form errors read in words.
 */
const CHROMIUM = '/usr/bin/chromium';
const skip = existsSync(CHROMIUM) ? false : `${CHROMIUM} is missing: install Debian's chromium (apt-get install -y chromium; .ci/run does) to run the console's browser tests`;
const CHROMIUM_ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];
const BOOTSTRAP = { authorization: `Bearer ${TEST_ADMIN_TOKEN}` };
/** Six banks the shipped list does not hold: enough for an audit entry's list of BICs to fold. */
const NEW_BANKS = Array.from({ length: 6 }, (_, index) => ({ bic: `04403000${index}`, name: `Тестовый банк ${index}` }));

describe('approval screens in Chromium', { skip, timeout: 120_000 }, () => {
  let t: TestGateway;
  let base: string;
  let context: BrowserContext;
  let page: Page;
  let profile: string;
  let proposer: TestOperator;
  let approver: TestOperator;
  const pageErrors: string[] = [];
  const api = async (method: string, url: string, payload?: object, headers: Record<string, string> = BOOTSTRAP) => {
    const response = await t.admin.inject({ method: method as 'GET', url, headers, ...(payload === undefined ? {} : { payload }) });
    return { status: response.statusCode, body: response.body ? response.json() : undefined };
  };
  /** Opens the console as `operator` (its personal token, kept for the tab as the sign-in page keeps it). */
  const signInAs = async (operator: TestOperator, hash: string) => {
    await page.goto(`${base}/#/partners`);
    await page.evaluate(`sessionStorage.setItem('partner-gateway.admin-token', ${JSON.stringify(operator.token)})`);
    await page.goto(`${base}/${hash}`);
    await page.reload();
    await textOf(page.getByTestId('signed-in-as'), new RegExp(operator.name));
  };

  before(async () => {
    if (!existsSync(projectFile('dist/console/index.html'))) {
      const { build } = await import('vite');
      await build({ configFile: projectFile('console/vite.config.mjs') });
    }
    t = await startTestGateway(testBackends()[0]!);
    base = await t.admin.listen({ host: '127.0.0.1', port: 0 });
    proposer = await t.addOperator('operator', { name: 'ops-paula' });
    approver = await t.addOperator('operator', { name: 'ops-arne' });
    profile = mkdtempSync(join(tmpdir(), 'console-chromium-'));
    context = await chromium.launchPersistentContext(profile, { executablePath: CHROMIUM, headless: true, args: CHROMIUM_ARGS, viewport: { width: 1280, height: 860 }, locale: 'en-GB', timezoneId: 'Europe/Moscow' });
    page = context.pages()[0] ?? (await context.newPage());
    page.setDefaultTimeout(10_000);
    page.on('pageerror', (error) => pageErrors.push(error.message));
  });

  after(async () => {
    await context?.close();
    await t?.close();
    if (profile) rmSync(profile, { recursive: true, force: true });
  });

  it('when a restore is held for approval, then the proposer sees "sent for approval" with a link, the approver the pending count, the diff with its counts, and a confirmation before it is applied', async () => {
    const first = (await api('GET', '/admin/v1/banks')).body;
    const current = first.banks.map((bank: { bic: string; name: string }) => ({ bic: bank.bic, name: bank.name }));
    assert.equal((await api('PUT', '/admin/v1/banks', { banks: [...current, ...NEW_BANKS] })).status, 200);
    assert.equal((await api('PUT', '/admin/v1/approvals/settings', { required: ['banks.restore'] })).status, 200);

    // The proposer restores the first version: held, shown as sent for approval, not as an error.
    await signInAs(proposer, '#/banks');
    await page.getByRole('tab', { name: 'History' }).click();
    await page.getByRole('button', { name: 'Restore…' }).last().click();
    await page.getByRole('dialog', { name: /Restore version \d+\?/ }).getByRole('button', { name: 'Restore' }).click();
    const sent = page.getByTestId('sent-for-approval');
    await textOf(sent, /Sent for approval[^]*banks\.restore of the bank list, back to version \d+ waits for a second operator/);
    assert.equal(await sent.getByRole('link', { name: 'Open Approvals' }).getAttribute('href'), '#/approvals');
    assert.equal(await page.locator('.alert').count(), 0, 'no error box');
    assert.equal((await api('GET', '/admin/v1/banks')).body.banks.length, current.length + NEW_BANKS.length, 'nothing changed yet');
    // An operator who may decide sees the count refreshed after the change.
    await textOf(page.getByTestId('pending-approvals'), /^1 waiting$/);
    if (process.env.CONSOLE_SCREENSHOTS_TO) await page.screenshot({ path: join(process.env.CONSOLE_SCREENSHOTS_TO, 'sent-for-approval.png') });

    // The approver sees the count, opens Approvals, reads the counts and the diff.
    await signInAs(approver, '#/partners');
    await textOf(page.getByTestId('pending-approvals'), /^1 waiting$/);
    await page.getByRole('link', { name: /^Approvals/ }).click();
    const proposal = page.getByRole('article', { name: /banks\.restore/ });
    await textOf(proposal.getByTestId('proposal-counts'), /^\+0 added \/ ~\d+ changed \/ −6 removed$/);
    assert.equal(await proposal.getByText(/more values \(in the export\)/).count(), 0, 'no flattened JSON');
    await textOf(proposal.getByRole('row', { name: /044030005/ }), /Removed\s*044030005\s*Тестовый банк 5/);

    // Approve asks first, saying what is applied; Cancel applies nothing.
    await proposal.getByRole('button', { name: 'Approve…' }).click();
    if (process.env.CONSOLE_SCREENSHOTS_TO) await page.screenshot({ path: join(process.env.CONSOLE_SCREENSHOTS_TO, 'approve-confirm.png') });
    const confirm = page.getByRole('dialog', { name: 'Approve and apply this proposal?' });
    await textOf(confirm.getByTestId('approve-summary'), /the bank list, back to version \d+: \+0 added \/ ~\d+ changed \/ −6 removed\./);
    await confirm.getByRole('button', { name: 'Cancel' }).click();
    assert.equal((await api('GET', '/admin/v1/banks')).body.banks.length, current.length + NEW_BANKS.length);
    await proposal.getByRole('button', { name: 'Approve…' }).click();
    await confirm.getByRole('button', { name: 'Approve and apply' }).click();
    await textOf(page.locator('.announcer'), /Approved and applied: banks\.restore/);
    assert.equal((await api('GET', '/admin/v1/banks')).body.banks.length, current.length, 'applied');
    await page.getByTestId('pending-approvals').waitFor({ state: 'detached' });

    // History names both, as the audit does.
    const latest = (await api('GET', '/admin/v1/banks/versions?limit=1')).body.versions[0];
    assert.deepEqual([latest.author.name, latest.approver.name], ['ops-paula', 'ops-arne']);
    await page.getByRole('link', { name: 'Banks' }).click();
    await page.getByRole('tab', { name: 'History' }).click();
    await textOf(page.locator('table.bank-versions tbody tr').first(), /ops-paula\s*approved by ops-arne/);
  });

  it('when an audit entry lists many banks, then its list is folded to a count with a "show" toggle, the time stays on one line and no text runs past the table', async () => {
    await t.gateway.admin.audit.flush();
    await page.goto(`${base}/#/audit?action=banks.replace`);
    const table = page.getByRole('table', { name: 'Audit entries, newest first' });
    const folded = table.locator('details.collapsed').filter({ hasText: '6 items' }).first();
    await textOf(folded.locator('summary'), /^6 items show$/);
    assert.equal(await folded.getAttribute('open'), null, 'closed');
    await folded.locator('summary').click();
    assert.equal(await folded.getAttribute('open'), '', 'opened');
    assert.equal(await folded.getByText(/044030005/).isVisible(), true, 'shown on demand');
    if (process.env.CONSOLE_SCREENSHOTS_TO) await page.screenshot({ path: join(process.env.CONSOLE_SCREENSHOTS_TO, 'audit-folded.png'), fullPage: true });
    const time = table.locator('tbody tr td:first-child time').first();
    // Functions evaluated in the page: this file is compiled without the DOM's types.
    const height = (await time.boundingBox())!.height;
    const lineHeight = await time.evaluate((element) => parseFloat((globalThis as unknown as { getComputedStyle(e: unknown): { lineHeight: string } }).getComputedStyle(element).lineHeight) || 20);
    assert.ok(height < lineHeight * 1.5, `the time is on one line (${height}px, line ${lineHeight}px)`);
    type Cell = { scrollWidth: number; clientWidth: number; textContent: string };
    const overflowing = await table.evaluate((element) =>
      [...(element as unknown as { querySelectorAll(selector: string): Iterable<Cell> }).querySelectorAll('td')].filter((cell) => cell.scrollWidth > cell.clientWidth + 1).map((cell) => cell.textContent.slice(0, 60)),
    );
    assert.deepEqual(overflowing, [], 'no cell\'s text runs past it');
  });

  it('when a bank edit is refused by the schema, then the error names the field and says what a valid value looks like', async () => {
    await page.goto(`${base}/#/banks`);
    const name = (await page.locator('table.banks tbody th').first().textContent())!;
    await page.getByRole('button', { name: `Edit ${name}` }).click();
    const dialog = page.getByRole('dialog', { name: new RegExp(`Edit ${name}`) });
    await dialog.getByLabel('SBP member id').fill('123');
    await dialog.getByRole('button', { name: 'Save' }).click();
    const error = await textOf(page.locator('#edit-sbpMemberId-error'), /SBP member id must be 12 digits, or empty\./);
    assert.doesNotMatch(error, /must match|must be null|anyOf/);
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    assert.deepEqual(pageErrors, [], 'no script error on any page');
  });

  it('when a password reset is held for approval, then its proposer still sees the new password once, told it works once approved, and after approval it does', async () => {
    const partner = await t.addPartner();
    const maker = await t.addOperator('security', { name: 'sec-maja' });
    const checker = await t.addOperator('security', { name: 'sec-kurt' });
    assert.equal((await api('PUT', '/admin/v1/approvals/settings', { required: ['partner.update'] })).status, 200);
    await signInAs(maker, `#/partner/${partner.login}`);
    await page.getByRole('button', { name: 'Reset password' }).click();
    await page.getByRole('dialog', { name: /Reset the password of/ }).getByRole('button', { name: 'Reset password' }).click();
    await textOf(page.getByTestId('password-held'), /waits for a second operator's approval/);
    const password = (await page.getByTestId('shown-once-secret').textContent())?.trim() ?? '';
    assert.ok(password.length >= 12, 'the generated password is shown');
    const login = (candidate: string) => t.app.inject({ method: 'POST', url: '/api/v1/login/', payload: { login: partner.login, password: candidate } });
    assert.equal((await login(password)).statusCode, 401, 'not before approval');
    const pending = (await api('GET', '/admin/v1/approvals?status=pending', undefined, checker.headers)).body.proposals;
    const reset = pending.find((proposal: { action: string; target: string }) => proposal.action === 'partner.update' && proposal.target.includes(partner.login));
    assert.ok(reset, JSON.stringify(pending));
    assert.equal((await api('POST', `/admin/v1/approvals/${reset.id}/approve`, undefined, checker.headers)).status, 200);
    assert.equal((await login(password)).statusCode, 200, 'the password shown works once approved');
    assert.equal((await api('PUT', '/admin/v1/approvals/settings', { required: [] })).status, 200);
  });
});
