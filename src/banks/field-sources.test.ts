import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { BankListEntry } from '@partner-gateway/contract/admin-bank-versions';
import { editBank } from './bank-list-edits.js';
import { fieldSource, operatorSet, stampSources, withSources } from './field-sources.js';
import { curatedTextOf } from '@partner-gateway/contract/bank-curated-fields';

const mia = { id: 'op-1', name: 'mia', credential: 'token' as const };
const sync = { id: 'sync', name: 'scheduled sync', credential: 'system' as const };
const bank = (extra: Partial<BankListEntry> = {}): BankListEntry => ({ bic: '044525225', name: 'Сбербанк', ...curatedTextOf({}), registryName: 'ПАО Сбербанк', sbpParticipant: true, ...extra });

describe('field sources', () => {
  it('when a change sets a field, then that field records the change\u2019s source and the others keep theirs', () => {
    const registry = fieldSource('registry', sync, new Date('2026-01-01T00:00:00Z'));
    const before = [bank({ nameEn: 'Sberbank', sources: { nameEn: registry } })];
    const [after] = withSources((list) => editBank(list, { bic: '044525225', sbpMemberId: '100000000111' }), fieldSource('operator', mia))(before).next;
    assert.deepEqual([after!.sources?.sbpMemberId?.source, after!.sources?.sbpMemberId?.by.name, after!.sources?.nameEn], ['operator', 'mia', registry]);
    assert.ok(operatorSet(after!, 'sbpMemberId'));
    assert.ok(!operatorSet(after!, 'nameEn'));
  });

  it('when a bank is added, then only the fields it arrives with get the source; a source the builder gave stays', () => {
    const chosen = fieldSource('operator', mia);
    const [added] = stampSources([], [bank({ sources: { name: chosen } })], fieldSource('registry', sync));
    assert.deepEqual([added!.sources?.name, added!.sources?.sbpParticipant?.source, added!.sources?.sbpMemberId, added!.sources?.nameEn], [chosen, 'registry', undefined, undefined]);
  });

  it('when a change changes nothing, then the list is given back as it was', () => {
    const list = [bank()];
    const change = withSources(() => ({ next: list, changes: [] }), fieldSource('operator', mia))(list);
    assert.equal(change.next, list);
  });
});
