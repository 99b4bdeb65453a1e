import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { BankListEntry } from '@partner-gateway/contract/admin-bank-versions';
import { curateFile } from './bank-list-edits.js';

const entry = (bic: string, name: string): BankListEntry => ({ bic, name, nameEn: null, sbpMemberId: null, registryName: null, sbpParticipant: true });
const list = [entry('044525225', 'Сбербанк'), entry('044525593', 'Альфа-Банк')];

describe('a curated-fields file applied to the list (mode=curate)', () => {
  it('when a curated file names BICs the list does not hold, then they are reported and nothing is added', () => {
    const curated = curateFile(list, [{ bic: '044525225', name: 'Сбер' }, { bic: '049999999', name: 'Нет' }]);
    assert.deepEqual(curated.unknown, ['049999999']);
    assert.equal(curated.next.length, list.length);
    assert.deepEqual(curated.next.map((bank) => bank.bic), ['044525225', '044525593'], 'nothing added or moved');
    assert.deepEqual(curated.changes.map((change) => [change.bic, change.kind, change.fields.map((field) => field.field)]), [['044525225', 'changed', ['name']]]);
  });

  it('when a row leaves a column out, then that field is kept; when it sets null, then it is cleared', () => {
    const current = [{ ...list[0]!, nameEn: 'Sberbank', sbpMemberId: '100000000111' }];
    const curated = curateFile(current, [{ bic: '044525225', name: 'Сбербанк', nameEn: null }]);
    assert.deepEqual([curated.next[0]!.nameEn, curated.next[0]!.sbpMemberId], [null, '100000000111']);
    assert.deepEqual(curated.changes[0]!.fields, [{ field: 'nameEn', old: 'Sberbank', new: null }]);
  });
});
