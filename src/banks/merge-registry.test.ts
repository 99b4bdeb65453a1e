import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import type { BankListEntry } from '@partner-gateway/contract/admin-bank-versions';
import { loadDefaultBanks } from './default-banks.js';
import { parseEd807Registry } from './import/parse-ed807.js';
import { mergeRegistry, type RegistryEntry } from './merge-registry.js';
import { curatedTextOf } from '@partner-gateway/contract/bank-curated-fields';

const entry = (bic: string, name: string, extra: Partial<BankListEntry> = {}): BankListEntry => ({
  bic,
  name,
  ...curatedTextOf({}),
  registryName: null,
  sbpParticipant: null,
  ...extra,
});
const registry = (bic: string, registryName: string, sbpParticipant = true): RegistryEntry => ({ bic, registryName, nameEn: null, sbpParticipant });

describe('mergeRegistry', () => {
  const sber = entry('044525225', 'Сбербанк', { sbpMemberId: '100000000111', nameEn: 'Sberbank' });
  const vtb = entry('044525187', 'ВТБ', { sbpMemberId: '100000000005' });
  const alfa = entry('044525593', 'Альфа-Банк', { sbpMemberId: '100000000008' });

  it('when a bank stays in SBP, then its curated fields and place are kept and only its registry facts change', () => {
    const { next, changes } = mergeRegistry([sber, vtb], [registry('044525187', 'Банк ВТБ (ПАО)'), registry('044525225', 'ПАО Сбербанк')]);
    assert.deepEqual(next.map((bank) => [bank.bic, bank.name, bank.sbpMemberId, bank.nameEn]), [
      ['044525225', 'Сбербанк', '100000000111', 'Sberbank'],
      ['044525187', 'ВТБ', '100000000005', null],
    ]);
    assert.deepEqual(changes[0], {
      bic: '044525225',
      name: 'Сбербанк',
      kind: 'changed',
      fields: [
        { field: 'registryName', old: null, new: 'ПАО Сбербанк' },
        { field: 'sbpParticipant', old: null, new: true },
      ],
    });
    assert.ok(changes.every((change) => change.fields.every((field) => field.field !== 'position')), 'nobody moved');
  });

  it('when the registry lists a new SBP head office, then it is added at the end with the registry name as display name', () => {
    const { next, changes } = mergeRegistry([sber], [registry('044525999', 'АО "Новый"'), registry('044525225', 'ПАО Сбербанк')]);
    assert.deepEqual(next.at(-1), entry('044525999', 'АО "Новый"', { registryName: 'АО "Новый"', sbpParticipant: true }));
    assert.deepEqual(changes.find((change) => change.kind === 'added')?.fields.at(-1), { field: 'position', old: null, new: 2 });
  });

  it('when a bank left SBP or the registry no longer lists it, then it is removed and the rest keep their order', () => {
    const { next, changes } = mergeRegistry([sber, vtb, alfa], [registry('044525225', 'ПАО Сбербанк'), registry('044525187', 'Банк ВТБ', false), registry('044525593', 'АО "АЛЬФА-БАНК"')]);
    assert.deepEqual(next.map((bank) => bank.bic), ['044525225', '044525593']);
    const removed = changes.filter((change) => change.kind === 'removed');
    assert.deepEqual(removed.map((change) => change.bic), ['044525187']);
    assert.deepEqual(removed[0]!.fields.at(-1), { field: 'position', old: 2, new: null });
    assert.ok(!changes.some((change) => change.bic === '044525593' && change.fields.some((field) => field.field === 'position')), 'a bank that only shifted up is not a position change');
  });

  it('when the registry renames a bank, then that is a registry-name change and the display name stays', () => {
    const start = mergeRegistry([sber], [registry('044525225', 'ПАО Сбербанк')]).next;
    const { next, changes } = mergeRegistry(start, [registry('044525225', 'ПАО "Сбербанк России"')]);
    assert.equal(next[0]!.name, 'Сбербанк');
    assert.deepEqual(changes, [{ bic: '044525225', name: 'Сбербанк', kind: 'changed', fields: [{ field: 'registryName', old: 'ПАО Сбербанк', new: 'ПАО "Сбербанк России"' }] }]);
  });

  it('when the same registry is merged twice, then the second merge changes nothing', () => {
    const entries = [registry('044525225', 'ПАО Сбербанк'), registry('044525999', 'Новый')];
    const once = mergeRegistry([sber, vtb], entries).next;
    assert.deepEqual(mergeRegistry(once, entries).changes, []);
  });

  it('when the May 2023 directory is merged over the default list, then every stayer keeps its curated fields and order and new SBP head offices follow', () => {
    const read = parseEd807Registry(readFileSync(new URL('../../../shared/data/20230518_ED807_full.xml', import.meta.url)));
    assert.ok('entries' in read);
    const defaults = loadDefaultBanks().map((bank) => entry(bank.bic, bank.name, { nameEn: bank.nameEn ?? null, sbpMemberId: bank.sbpMemberId ?? null }));
    const { next, changes } = mergeRegistry(defaults, read.entries);
    const stayers = next.filter((bank) => defaults.some((old) => old.bic === bank.bic));
    const expected = defaults.filter((bank) => stayers.some((stayer) => stayer.bic === bank.bic));
    assert.deepEqual(stayers.map((bank) => [bank.bic, bank.name, bank.nameEn, bank.sbpMemberId]), expected.map((bank) => [bank.bic, bank.name, bank.nameEn, bank.sbpMemberId]));
    assert.deepEqual(next.slice(0, stayers.length).map((bank) => bank.bic), stayers.map((bank) => bank.bic), 'stayers first, in their order');
    const added = changes.filter((change) => change.kind === 'added');
    assert.ok(added.length > 100, `${added.length} SBP head offices added`);
    assert.deepEqual(next.slice(stayers.length).map((bank) => bank.bic), added.map((change) => change.bic));
  });

  it('when publishNow refuses a new SBP head office, then it is left out (it waits for admission) while stayers and leavers are merged as ever', () => {
    const entries = [registry('044525225', 'ПАО Сбербанк'), registry('044525999', 'Новый'), registry('044525998', 'Другой')];
    const { next, changes } = mergeRegistry([sber, vtb], entries, (candidate) => candidate.bic === '044525998');
    assert.deepEqual(next.map((bank) => bank.bic), ['044525225', '044525998']);
    assert.deepEqual(changes.map((change) => [change.bic, change.kind]), [['044525225', 'changed'], ['044525998', 'added'], [vtb.bic, 'removed']]);
    assert.deepEqual(mergeRegistry([sber], entries, () => false).next.map((bank) => bank.bic), ['044525225'], 'nothing new without admission');
  });
});
