import assert from 'node:assert/strict';
import { afterEach, beforeEach, describe, it } from 'node:test';
import { sql } from 'kysely';
import type { DatabaseHandle } from '../../db/database.js';
import { testBackends } from '../../../test/support/test-databases.js';
import { createJtiReplayRepository } from './jti-replay-repository.js';
import { createReplayStateRepository, readTableSentinel, writeTableSentinel } from './replay-state-repository.js';
import { createReplayState, DATABASE_SCOPE, type ReplayState } from './replay-state.js';
import { createSingleUseJtis, type SingleUseJtis } from './single-use-jtis.js';

const window = () => ({ rememberUntil: new Date(Date.now() + 120_000) });
/** A credential issued `ago` seconds before now (its iat). */
const issued = (ago: number) => ({ issuedAt: Math.floor(Date.now() / 1000) - ago, ...window() });

for (const backend of testBackends()) {
  describe(`the replay state of the database's jwe_replay table (${backend.name})`, () => {
    // A database of its own per rule: a loss one rule records would refuse the next rule's credentials.
    let handle: DatabaseHandle;
    beforeEach(async () => {
      handle = await backend.open();
    });
    afterEach(() => handle.close());

    /** One gateway's view: its replay state over the table, and the claims it checks. */
    function instance(options: { soleWriter?: object; lost?: Array<unknown> } = {}): { state: ReplayState; jtis: SingleUseJtis } {
      let state: ReplayState | undefined;
      const table = createJtiReplayRepository(handle.db, { epoch: () => state!.epoch(DATABASE_SCOPE) });
      state = createReplayState({
        repository: createReplayStateRepository(handle.db),
        scopes: [{ name: DATABASE_SCOPE, readSentinel: readTableSentinel, writeSentinel: writeTableSentinel }],
        now: Date.now,
        ...(options.soleWriter ? { soleWriter: options.soleWriter } : {}),
        onLost: (scope, lostAt) => options.lost?.push({ scope, lostAt }),
      });
      return { state, jtis: createSingleUseJtis(table, state) };
    }
    const truncate = () => sql`truncate jwe_replay`.execute(handle.db);

    it('when the table is new, then its sentinel is written and nothing counts as lost', async () => {
      const lost: unknown[] = [];
      const { state, jtis } = instance({ lost });
      assert.equal(await jtis.spend('rs-new', issued(60)), 'spent');
      assert.equal(await jtis.spend('rs-new', issued(60)), 'replayed');
      assert.equal(state.notBefore(), 0);
      assert.deepEqual(lost, []);
      assert.equal((await readTableSentinel(handle.db, 0))?.epoch, state.epoch(DATABASE_SCOPE));
    });

    it('when the table is emptied under a running instance, then its next claim records the loss and refuses what was issued before it, not what comes after', async () => {
      const lost: Array<{ scope: string; lostAt: number }> = [];
      const { state, jtis } = instance({ lost });
      assert.equal(await jtis.spend('rs-truncated', issued(5)), 'spent');
      const before = Date.now();
      await truncate();
      // The replay, which the emptied table would otherwise accept.
      assert.equal(await jtis.spend('rs-truncated', issued(5)), 'state_lost');
      assert.equal(lost.length, 1);
      assert.equal(lost[0]!.scope, DATABASE_SCOPE);
      assert.ok(state.notBefore() >= before && state.notBefore() <= Date.now());
      // Issued after the loss was found (the next whole second): accepted once, and only once.
      const after = { issuedAt: Math.ceil(state.notBefore() / 1000), ...window() };
      assert.equal(await jtis.spend('rs-after-loss', after), 'spent');
      assert.equal(await jtis.spend('rs-after-loss', after), 'replayed');
    });

    it('when another instance found the loss first, then this one takes the epoch and the moment from the database and records no second loss', async () => {
      const first = instance();
      const second = instance();
      await first.jtis.spend('rs-two-a', issued(1));
      await second.jtis.spend('rs-two-b', issued(1));
      await truncate();
      assert.equal(await first.jtis.spend('rs-two-a', issued(1)), 'state_lost');
      const epoch = first.state.epoch(DATABASE_SCOPE);
      assert.equal(await second.jtis.spend('rs-two-b', issued(1)), 'state_lost');
      assert.equal(second.state.epoch(DATABASE_SCOPE), epoch, 'the same epoch: no second loss recorded');
      assert.equal(second.state.notBefore(), first.state.notBefore());
    });

    it('when the embedded database was not closed cleanly, then the next start counts its jtis as lost; after a clean close it does not', async () => {
      const lost: unknown[] = [];
      // The first process: started, used, never closed (killed).
      const killed = instance({ soleWriter: {} });
      assert.equal(await killed.jtis.spend('rs-killed', issued(2)), 'spent');
      // The table still holds the jti and its sentinel: only the open marker tells.
      const next = instance({ soleWriter: {}, lost });
      await next.state.ready();
      assert.equal(lost.length, 1, 'a loss recorded at start');
      assert.equal(await next.jtis.spend('rs-killed', issued(2)), 'state_lost');
      await next.state.close(true);
      const clean = instance({ soleWriter: {}, lost });
      await clean.state.ready();
      assert.equal(lost.length, 1, 'no loss after a clean close');
      await clean.state.close(true);
    });

    it('when two gateways of one process share the embedded database, then the second start is no loss, and only the last close marks it closed', async () => {
      const key = {};
      const lost: unknown[] = [];
      const one = instance({ soleWriter: key, lost });
      const two = instance({ soleWriter: key, lost });
      await Promise.all([one.state.ready(), two.state.ready()]);
      assert.deepEqual(lost, []);
      await one.state.close(true);
      // Still open: the process dies now.
      const afterKill = instance({ soleWriter: {}, lost });
      await afterKill.state.ready();
      assert.equal(lost.length, 1);
      await afterKill.state.close(true);
      await two.state.close(true);
    });
  });
}
