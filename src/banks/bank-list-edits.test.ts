import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { BankListEntry } from '@partner-gateway/contract/admin-bank-versions';
import { CURATED_TEXT_FIELD_NAMES, curatedTextOf, eachCuratedText } from '@partner-gateway/contract/bank-curated-fields';
import { validateBank } from './bank.js';
import { bankListCsv } from './bank-list-csv.js';
import { addBank, curateFile, editBank, mergeFile, type CuratedInput } from './bank-list-edits.js';

const entry = (bic: string, name: string): BankListEntry => ({ bic, name, ...curatedTextOf({}), registryName: null, sbpParticipant: true });
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

describe('every declared curated field goes through the edits, the checks and the export', () => {
  // A value each declared field accepts: 12 digits fit every rule the fields have (text, or digits).
  const values = eachCuratedText((field) => `1000000001${String(CURATED_TEXT_FIELD_NAMES.indexOf(field)).padStart(2, '0')}`);

  it('when a bank is added, edited, merged and curated with every field, then each is stored, changed and listed', () => {
    const checked = validateBank({ bic: '044525225', name: ' Сбербанк ', ...values }, 'body');
    assert.ok('bank' in checked);
    const added = addBank([], checked.bank as CuratedInput & { name: string });
    assert.deepEqual(curatedTextOf(added.next[0]!), values, 'added');
    assert.deepEqual(added.changes[0]!.fields.map((field) => field.field).filter((field) => (CURATED_TEXT_FIELD_NAMES as string[]).includes(field)).sort(), [...CURATED_TEXT_FIELD_NAMES].sort());
    const cleared = editBank(added.next, { bic: '044525225', ...eachCuratedText(() => null) });
    assert.deepEqual(curatedTextOf(cleared.next[0]!), eachCuratedText(() => null), 'cleared by an edit');
    const merged = mergeFile(cleared.next, [{ bic: '044525225', name: 'Сбербанк', ...values }]);
    assert.deepEqual(curatedTextOf(merged.next[0]!), values, 'set by a merged file');
    const csv = bankListCsv(1, merged.next).text.split('\r\n');
    assert.equal(csv[1], ['044525225', 'Сбербанк', ...CURATED_TEXT_FIELD_NAMES.map((field) => values[field]), '', ...CURATED_TEXT_FIELD_NAMES.map(() => '')].join(','));
    const kept = curateFile(merged.next, [{ bic: '044525225', name: 'Сбер' }]);
    assert.deepEqual(curatedTextOf(kept.next[0]!), values, 'a curate row without the columns keeps them');
  });
});
