import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import { loadConfig } from '../../config.js';
import { AppError } from '../../errors.js';
import { ED807_MAY_2023, directoryWithout, excludedByDefault, sbpHeadOffices } from '../../../test/support/ed807-directory.js';

/** The SBP head offices a merge publishes with BANKS_AUTO_ADMIT: all but those the default exclusion rules keep out. */
const published = () => {
  const excluded = excludedByDefault();
  return sbpHeadOffices().filter((bic) => !excluded.has(bic));
};
import { testBackends } from '../../../test/support/test-databases.js';
import { loadDefaultBanks } from '../default-banks.js';
import { createBanks, type BanksModule } from '../banks-module.js';
import type { DatabaseHandle } from '../../db/database.js';
import type { BankSyncRun } from '@partner-gateway/contract/admin-bank-sync';
import { createBankSyncRepository } from './bank-sync-repository.js';
import { ABANDONED_RUN } from './sync-due.js';

const OPERATOR = { id: 'op-1', name: 'alice', credential: 'token' } as const;
const HOUR = 3_600_000;

for (const backend of testBackends()) {
  describe(`bank registry sync on ${backend.name}`, () => {
    let handle: DatabaseHandle;
    let banks: BanksModule;
    let clock = Date.parse('2026-11-27T00:00:00Z');
    let served: Uint8Array | Error = readFileSync(ED807_MAY_2023);
    let fetches = 0;
    let release: (() => void) | undefined;
    before(async () => {
      handle = await backend.open();
      const config = loadConfig({ NODE_ENV: 'test', BANKS_SYNC_URL: 'http://127.0.0.1:9/ed807.xml', BANKS_SYNC_INTERVAL: '86400', BANKS_SYNC_MAX_REMOVALS: '10', BANKS_AUTO_ADMIT: 'true' });
      banks = createBanks(handle.db, handle.changeFeed(), config, () => clock, {
        kind: handle.kind,
        async fetchSource() {
          fetches++;
          if (release) await new Promise<void>((resolve) => (release = resolve));
          if (served instanceof Error) throw served;
          return served;
        },
        onRun: () => {},
      });
      await banks.seed(loadDefaultBanks());
    });
    after(() => handle.close());

    it('when nothing has run yet, then the schedule runs; then not again before BANKS_SYNC_INTERVAL has passed', async () => {
      const run = await banks.sync.tick();
      assert.deepEqual([run?.outcome, run?.trigger, run?.author.credential], ['applied', 'schedule', 'system']);
      clock += 23 * HOUR;
      assert.equal(await banks.sync.tick(), undefined);
      clock += HOUR;
      assert.equal((await banks.sync.tick())?.outcome, 'unchanged');
    });

    it('when a run failed, then the schedule tries again after a tenth of the interval, not before', async () => {
      served = new Error('connect ECONNREFUSED');
      clock += 24 * HOUR;
      const failed = await banks.sync.tick();
      assert.equal(failed?.outcome, 'failed');
      assert.equal(failed?.error, 'the source could not be fetched: connect ECONNREFUSED');
      clock += 2 * HOUR;
      assert.equal(await banks.sync.tick(), undefined);
      clock += HOUR;
      served = readFileSync(ED807_MAY_2023);
      assert.equal((await banks.sync.tick())?.outcome, 'unchanged');
    });

    it('when an operator runs it while a run is going on, then 409 bank_sync_running and only one fetch', async () => {
      release = () => {};
      const before = fetches;
      const first = banks.sync.run(OPERATOR);
      // The first run holds the lock once it fetches: asked before that, which of two runs gets it is a race.
      while (fetches === before) await new Promise((resolve) => setImmediate(resolve));
      await assert.rejects(banks.sync.run(OPERATOR), (error: unknown) => error instanceof AppError && error.code === 'bank_sync_running');
      const go = release;
      release = undefined;
      go();
      assert.equal((await first).outcome, 'unchanged');
      assert.equal(fetches, before + 1);
    });

    it('when a second held run comes, then it supersedes the first, which can no longer be approved', async () => {
      served = directoryWithout(published().slice(0, 12));
      const first = await banks.sync.run(OPERATOR);
      const second = await banks.sync.run(OPERATOR);
      assert.deepEqual([first.outcome, second.outcome], ['held', 'held']);
      const status = await banks.sync.status();
      assert.equal(status.pending?.id, second.id);
      assert.equal(status.runs.find((run) => run.id === first.id)?.hold?.status, 'superseded');
      await assert.rejects(banks.sync.approve(first.id, OPERATOR), (error: unknown) => error instanceof AppError && error.code === 'bank_sync_not_pending');
      const approved = await banks.sync.approve(second.id, OPERATOR, 'checked with NSPK');
      assert.equal(approved.hold?.status, 'approved');
      const version = await banks.lists.current();
      assert.equal(version.version, approved.version);
      assert.equal(version.list.length, 214 - 11 - 12);
      await assert.rejects(banks.sync.reject(second.id, OPERATOR), (error: unknown) => error instanceof AppError && error.code === 'bank_sync_not_pending');
      await assert.rejects(banks.sync.approve(999_999, OPERATOR), (error: unknown) => error instanceof AppError && error.code === 'bank_sync_run_not_found');
    });

    it('when the runs are older than BANK_VERSION_RETENTION_DAYS, then they are purged, but never a held one', async () => {
      served = directoryWithout(published().slice(12, 24));
      const held = await banks.sync.run(OPERATOR);
      assert.equal(held.outcome, 'held');
      clock += 401 * 24 * HOUR;
      await banks.purgeVersions();
      const status = await banks.sync.status();
      assert.deepEqual(status.runs.map((run) => run.id), [held.id]);
      assert.equal(status.pending?.id, held.id);
    });

    it('when a run was started and its instance died before it finished, then the next start does not fetch again at once: the run is recorded as failed and told, and retries back off', async () => {
      // The crash: the run's started record is all the dead instance left.
      const repository = createBankSyncRepository(handle.db, handle.kind);
      const crashed = async () =>
        repository.start({ startedAt: new Date(clock), finishedAt: null, trigger: 'schedule', author: { id: 'sync', name: 'scheduled sync', credential: 'system' }, source: 'http://127.0.0.1:9/ed807.xml', outcome: 'started', error: null, received: null, baseVersion: null, version: null, added: 0, changed: 0, removed: 0, changes: [], entries: null, holdReason: null, holdStatus: null, decidedBy: null, decidedAt: null, decisionComment: null });
      const started = await crashed();
      assert.equal((await banks.sync.status()).runs[0]?.outcome, 'started');
      clock += 30_000;
      // The next start: a new module over the same database, as a restarted instance has.
      const told: BankSyncRun[] = [];
      let fetched = 0;
      const restarted = createBanks(handle.db, handle.changeFeed(), loadConfig({ NODE_ENV: 'test', BANKS_SYNC_URL: 'http://127.0.0.1:9/ed807.xml', BANKS_SYNC_INTERVAL: '86400', BANKS_AUTO_ADMIT: 'true' }), () => clock, {
        kind: handle.kind,
        async fetchSource() {
          fetched++;
          return readFileSync(ED807_MAY_2023);
        },
        onRun: (run) => told.push(run),
      });
      assert.equal(await restarted.sync.tick(), undefined, 'not retried at the next start');
      assert.equal(fetched, 0);
      const [abandoned] = (await restarted.sync.status()).runs;
      assert.deepEqual([abandoned?.id, abandoned?.outcome, abandoned?.finishedAt, abandoned?.error], [started.id, 'failed', null, ABANDONED_RUN]);
      assert.deepEqual(told.map((run) => [run.id, run.outcome]), [[started.id, 'failed']], 'audited and logged as a failure');
      assert.equal((await restarted.sync.figures()).lastFailed, true);
      // A second crash in a row doubles the wait: a tenth of the interval (2.4 h), then a fifth (4.8 h).
      clock += 2.4 * HOUR;
      await crashed();
      clock += 2.4 * HOUR;
      assert.equal(await restarted.sync.tick(), undefined, 'a second crash in a row waits twice as long');
      assert.equal(fetched, 0);
      clock += 2.4 * HOUR;
      assert.equal((await restarted.sync.tick())?.outcome, 'applied', 'then it runs, and reads the directory');
      assert.equal(fetched, 1);
      assert.ok((await restarted.sync.status()).runs.every((run) => run.outcome !== 'started'), 'no started record is left behind by a finished run');
    });
  });
}
