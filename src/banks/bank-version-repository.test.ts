import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { sql } from 'kysely';
import type { DatabaseHandle } from '../db/database.js';
import { migrateToLatest } from '../db/migrate.js';
import { testBackends } from '../../test/support/test-databases.js';
import { createBankListService, SEED_AUTHOR } from './bank-list-service.js';
import { addBank } from './bank-list-edits.js';
import { createBankVersionRepository } from './bank-version-repository.js';
import { curatedTextOf } from '@partner-gateway/contract/bank-curated-fields';

const DAY = 86_400_000;

for (const backend of testBackends()) {
  describe(`bank versions in storage on ${backend.name}`, () => {
    let handle: DatabaseHandle;
    before(async () => {
      // A database of before the versions (migration 0022) that already holds a list.
      handle = await backend.open({ upTo: '0022-audit-operators' });
      await sql`insert into banks (bic, name, name_en, sbp_member_id, position) values ('044525225', 'Сбербанк', 'Sberbank', '100000000111', 0), ('044525187', 'ВТБ', null, null, 1)`.execute(handle.db);
      await migrateToLatest(handle.db);
    });
    after(() => handle.close());

    it('when a database that had a list before versions starts, then that list, untouched, becomes version 1 and the defaults are not written', async () => {
      let clock = Date.now() - 500 * DAY;
      const versions = createBankVersionRepository(handle.db);
      const lists = createBankListService(versions, () => clock, () => {});
      assert.equal(await lists.seed([{ bic: '044525974', name: 'Т-Банк', ...curatedTextOf({}), registryName: null, sbpParticipant: null }]), false);
      const current = await lists.current();
      assert.equal(current.version, 1);
      assert.deepEqual(current.list.map((bank) => [bank.bic, bank.name, bank.sbpMemberId]), [['044525225', 'Сбербанк', '100000000111'], ['044525187', 'ВТБ', null]]);
      assert.equal(current.body, '{"banks":[{"name":"Сбербанк","bic":"044525225"},{"name":"ВТБ","bic":"044525187"}]}');
      assert.equal((await versions.get(1))?.author.name, SEED_AUTHOR.name);
      assert.equal(await lists.seed([]), false, 'once only');

      clock += 100 * DAY;
      await lists.apply((list) => addBank(list, { bic: '044525974', name: 'Т-Банк' }), { source: 'add', author: SEED_AUTHOR });
      clock += 350 * DAY;
      await lists.apply((list) => addBank(list, { bic: '044525593', name: 'Альфа-Банк' }), { source: 'add', author: SEED_AUTHOR });
      assert.equal(await versions.purgeBefore(new Date(clock - 300 * DAY)), 2, 'versions 1 and 2 are older than the retention');
      assert.deepEqual((await versions.page(undefined, 10)).map((version) => version.number), [3]);
      assert.equal(await versions.purgeBefore(new Date(clock + DAY)), 0, 'the current version is never removed');
    });
  });
}
