import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { BankListEntry } from '@partner-gateway/contract/admin-bank-versions';
import { fieldSource, stampSources } from '../field-sources.js';
import { applyProposals, matchParticipants, normalizeBankName, proposalKey } from './match-participants.js';
import { curatedTextOf } from '@partner-gateway/contract/bank-curated-fields';

const bank = (bic: string, name: string, extra: Partial<BankListEntry> = {}): BankListEntry => ({ bic, name, ...curatedTextOf({}), registryName: null, sbpParticipant: true, ...extra });
const operator = fieldSource('operator', { id: 'op-1', name: 'mia', credential: 'token' }, new Date('2026-01-01T00:00:00Z'));

describe('participant matching', () => {
  it('when names differ only in legal form, quotes, case and ё, then they normalize alike', () => {
    assert.equal(normalizeBankName('АО "Тинькофф Банк"'), normalizeBankName('тинькофф  банк'));
    assert.equal(normalizeBankName('ПАО «Совкомбанк»'), 'совкомбанк');
    assert.equal(normalizeBankName('Банк Ёлка'), normalizeBankName('БАНК ЕЛКА (ООО)'));
  });

  it('when an entry names a listed BIC, then the bank takes its member id and Latin name at once and is listed', () => {
    const { next, matching } = matchParticipants([bank('044525225', 'Сбербанк')], [{ memberId: '100000000111', name: 'Сбер', nameEn: 'Sberbank', bic: '044525225' }], new Set());
    assert.deepEqual([next[0]!.sbpMemberId, next[0]!.nameEn, next[0]!.participantsListed], ['100000000111', 'Sberbank', true]);
    assert.deepEqual([matching.matchedByBic, matching.proposals.length, matching.unmatchedBanks.length, matching.unmatchedParticipants.length], [1, 0, 0, 0]);
  });

  it('when an operator set the member id or cleared the Latin name, then a BIC match keeps both and reports what it offered', () => {
    const edited = stampSources([bank('044525225', 'Сбербанк')], [bank('044525225', 'Сбербанк', { sbpMemberId: '999999999999' })], operator);
    const cleared = [{ ...edited[0]!, sources: { ...edited[0]!.sources, nameEn: operator } }];
    const { next, matching } = matchParticipants(cleared, [{ memberId: '100000000111', name: 'Сбер', nameEn: 'Sberbank', bic: '044525225' }], new Set());
    assert.deepEqual([next[0]!.sbpMemberId, next[0]!.nameEn, next[0]!.participantsListed], ['999999999999', null, true]);
    assert.deepEqual(matching.keptOperatorValues.map((kept) => [kept.field, kept.offered]), [['sbpMemberId', '100000000111'], ['nameEn', 'Sberbank']]);
  });

  it('when an entry without a BIC has the name of exactly one bank, then it is proposed, not applied, and a rejected pair is not proposed again', () => {
    const current = [bank('044525999', 'Пример', { registryName: 'АО "Банк Пример"' }), bank('044525888', 'Другой')];
    const entries = [{ memberId: '100000000999', name: 'БАНК ПРИМЕР', nameEn: null, bic: null }];
    const { next, matching } = matchParticipants(current, entries, new Set());
    assert.deepEqual(matching.proposals.map((proposal) => [proposal.bic, proposal.memberId]), [['044525999', '100000000999']]);
    assert.equal(next[0]!.sbpMemberId, null, 'nothing applied before confirmation');
    assert.deepEqual(matching.unmatchedBanks.map((unmatched) => unmatched.bic), ['044525888']);
    assert.equal(next[1]!.participantsListed, false);
    const again = matchParticipants(current, entries, new Set([proposalKey('044525999', '100000000999')]));
    assert.deepEqual([again.matching.proposals.length, again.matching.unmatchedParticipants.length], [0, 1]);
  });

  it('when two banks share a normalized name, then no proposal is made and the entry stays unmatched', () => {
    const { matching } = matchParticipants([bank('044525001', 'Банк Один'), bank('044525002', 'банк один')], [{ memberId: '100000000001', name: 'Банк Один', nameEn: null, bic: null }], new Set());
    assert.deepEqual([matching.proposals.length, matching.unmatchedParticipants.length], [0, 1]);
  });

  it('when a bank already has the member id an entry without a BIC carries, then it is listed by that id', () => {
    const { next, matching } = matchParticipants([bank('044525001', 'Банк Один', { sbpMemberId: '100000000001' })], [{ memberId: '100000000001', name: 'Other name', nameEn: null, bic: null }], new Set());
    assert.deepEqual([matching.matchedByMemberId, next[0]!.participantsListed], [1, true]);
  });

  it('when a proposal is confirmed, then the bank takes its member id; a bank gone since is refused', () => {
    const current = [bank('044525999', 'Пример')];
    const { next } = applyProposals(current, [{ bic: '044525999', memberId: '100000000999', participantNameEn: 'Primer' }], (bic) => new Error(bic));
    assert.deepEqual([next[0]!.sbpMemberId, next[0]!.nameEn], ['100000000999', 'Primer']);
    assert.throws(() => applyProposals(current, [{ bic: '044525000', memberId: '100000000999', participantNameEn: null }], (bic) => new Error(bic)), /044525000/);
  });
});
