import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { BankListEntry } from '@partner-gateway/contract/admin-bank-versions';
import { diffBankLists } from '../bank-list-diff.js';
import { partnerBody, publishedBanks } from '../bank-body.js';
import { participantsHold } from './bank-participants.js';
import { curatedTextOf } from '@partner-gateway/contract/bank-curated-fields';

const bank = (index: number, participantsListed: boolean | null): BankListEntry => ({
  bic: `0445250${String(index).padStart(2, '0')}`,
  name: `Банк ${index}`,
  ...curatedTextOf({}),
  registryName: null,
  sbpParticipant: true,
  participantsListed,
});
const settings = { url: undefined, intervalMs: 86_400_000, required: true, maxRemovals: 2, minBanks: 3 };

describe('banks the participant list leaves out', () => {
  it('when BANKS_PARTICIPANTS_REQUIRED is off, then partners get every bank; on, then not those the list left out (never-matched ones stay)', () => {
    const list = [bank(1, true), bank(2, false), bank(3, null)];
    assert.equal(publishedBanks(list, false).length, 3);
    assert.deepEqual(publishedBanks(list, true).map((entry) => entry.bic), [list[0]!.bic, list[2]!.bic]);
    assert.equal(partnerBody(publishedBanks(list, true)), JSON.stringify({ banks: [{ name: 'Банк 1', bic: list[0]!.bic }, { name: 'Банк 3', bic: list[2]!.bic }] }));
  });

  it('when a reading would take more banks from partners than the removal guard allows, then it is held, and only when the setting is on', () => {
    const current = [1, 2, 3, 4, 5].map((index) => bank(index, true));
    const next = current.map((entry, index) => (index < 3 ? { ...entry, participantsListed: false } : entry));
    const changes = diffBankLists(current, next);
    assert.match(participantsHold(changes, next, settings)!, /it would remove 3 banks \(more than BANKS_SYNC_MAX_REMOVALS, 2\), and it would leave 2 banks \(fewer than BANKS_SYNC_MIN_BANKS, 3\)/);
    assert.equal(participantsHold(changes, next, { ...settings, required: false }), undefined);
    const one = current.map((entry, index) => (index === 0 ? { ...entry, participantsListed: false } : entry));
    assert.equal(participantsHold(diffBankLists(current, one), one, settings), undefined);
  });
});
