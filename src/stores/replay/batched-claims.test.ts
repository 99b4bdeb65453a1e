import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { DatabaseHandle } from '../../db/database.js';
import { testBackends } from '../../../test/support/test-databases.js';
import { createBatchedClaims, type InsertNew } from './batched-claims.js';
import { createJtiReplayRepository } from './jti-replay-repository.js';

const until = () => new Date(Date.now() + 60_000);

for (const backend of testBackends()) {
  describe(`jti claims written in groups (${backend.name})`, () => {
    let handle: DatabaseHandle;
    before(async () => {
      handle = await backend.open();
    });
    after(() => handle.close());

    it('grants a jti claimed 100 times at once to exactly one claimant, on one instance and across two', async () => {
      const a = createJtiReplayRepository(handle.db);
      const b = createJtiReplayRepository(handle.db);
      const results = await Promise.all(Array.from({ length: 100 }, (_, index) => (index % 2 ? a : b).claim('same-jti', until())));
      assert.equal(results.filter(Boolean).length, 1);
    });

    it('puts the claims of one turn of the event loop in one statement', async () => {
      const repository = createJtiReplayRepository(handle.db);
      const sizes: number[] = [];
      const claim = createBatchedClaims(async (entries) => {
        sizes.push(entries.length);
        const fresh = await repository.recordAll(entries);
        return new Set(entries.map((entry) => entry.jti).filter((jti) => !fresh.includes(jti)));
      });
      const jtis = Array.from({ length: 20 }, (_, index) => `one-turn-${index}`);
      assert.deepEqual(await Promise.all(jtis.map((jti) => claim(jti, until()))), jtis.map(() => true));
      assert.deepEqual(sizes, [20]);
    });

    it('grants every distinct jti once, in far fewer statements than claims, and refuses each again afterwards', async () => {
      const repository = createJtiReplayRepository(handle.db);
      let statements = 0;
      const insertNew: InsertNew = async (entries) => {
        statements += 1;
        const fresh = await repository.recordAll(entries);
        return new Set(entries.map((entry) => entry.jti).filter((jti) => !fresh.includes(jti)));
      };
      const claim = createBatchedClaims(insertNew);
      const jtis = Array.from({ length: 300 }, (_, index) => `distinct-${index}`);
      assert.deepEqual(await Promise.all(jtis.map((jti) => claim(jti, until()))), jtis.map(() => true));
      assert.ok(statements < 30, `${statements} statements for 300 claims`);
      assert.deepEqual(await Promise.all(jtis.map((jti) => repository.claim(jti, until()))), jtis.map(() => false));
    });

    it('writes a claim alone when nothing else is in flight', async () => {
      const repository = createJtiReplayRepository(handle.db);
      assert.equal(await repository.claim('alone', until()), true);
      assert.equal(await repository.claim('alone', until()), false);
    });
  });
}

describe('jti claims written in groups, when the database refuses an entry', () => {
  it('fails only the claim the database refused, not the others of its batch', async () => {
    const claim = createBatchedClaims(async (entries) => {
      if (entries.some((entry) => entry.jti === 'refused')) throw new Error('value out of range');
      return new Set(entries.map((entry) => entry.jti));
    });
    const results = await Promise.allSettled(['first', 'second', 'refused', 'third'].map((jti) => claim(jti, until())));
    assert.deepEqual(results.map((result) => result.status), ['fulfilled', 'fulfilled', 'rejected', 'fulfilled']);
  });
});
