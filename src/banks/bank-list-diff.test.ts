import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { BankListEntry } from '@partner-gateway/contract/admin-bank-versions';
import { diffBankLists } from './bank-list-diff.js';
import { editBank, mergeFile, replaceList } from './bank-list-edits.js';
import { curatedTextOf } from '@partner-gateway/contract/bank-curated-fields';

const bank = (n: number): BankListEntry => ({ bic: `0445250${String(n).padStart(2, '0')}`, name: `Банк ${n}`, ...curatedTextOf({}), registryName: null, sbpParticipant: null });
const list = Array.from({ length: 150 }, (_, index) => bank(index + 1));

describe('diffBankLists', () => {
  it('when one bank moves from 145th to 1st, then that is one position change, 145 -> 1, and nothing else', () => {
    const { changes } = editBank(list, { bic: list[144]!.bic, position: 1 });
    assert.deepEqual(changes, [{ bic: list[144]!.bic, name: 'Банк 145', kind: 'changed', fields: [{ field: 'position', old: 145, new: 1 }] }]);
  });

  it('when a bank is removed, then the banks after it are not reported as moved', () => {
    const changes = diffBankLists(list, list.filter((_, index) => index !== 3));
    assert.deepEqual(changes.map((change) => [change.bic, change.kind]), [[list[3]!.bic, 'removed']]);
  });

  it('when nothing differs, then there is no change', () => {
    assert.deepEqual(diffBankLists(list, list.map((entry) => ({ ...entry }))), []);
  });
});

describe('file merges and replaces', () => {
  it('when a file has no member-id column, then member ids stay; when it sets one to null, then it is cleared', () => {
    const current = [{ ...bank(1), sbpMemberId: '100000000111' }];
    assert.deepEqual(mergeFile(current, [{ bic: bank(1).bic, name: 'Банк 1' }]).changes, []);
    assert.deepEqual(mergeFile(current, [{ bic: bank(1).bic, name: 'Банк 1', sbpMemberId: null }]).changes[0]!.fields, [{ field: 'sbpMemberId', old: '100000000111', new: null }]);
  });

  it('when the list is replaced, then banks left out are removed and stayers keep their registry facts', () => {
    const current = [{ ...bank(1), registryName: 'ПАО Банк 1', sbpParticipant: true }, bank(2)];
    const { next, changes } = replaceList(current, [{ bic: bank(2).bic, name: 'Банк 2' }, { bic: bank(1).bic, name: 'Банк 1' }].slice(1));
    assert.deepEqual(next, [current[0]]);
    assert.deepEqual(changes.map((change) => [change.bic, change.kind]), [[bank(2).bic, 'removed']]);
  });
});
