import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { BankListEntry } from '@partner-gateway/contract/admin-bank-versions';
import { validateBankList } from './bank.js';
import { bankListCsv } from './bank-list-csv.js';
import { curateFile } from './bank-list-edits.js';
import { parseBankCsv } from './import/parse-bank-csv.js';
import { curatedTextOf } from '@partner-gateway/contract/bank-curated-fields';

const entry = (bic: string, name: string, nameEn: string | null = null, sbpMemberId: string | null = null): BankListEntry => ({ bic, name, ...curatedTextOf({ nameEn, sbpMemberId }), registryName: null, sbpParticipant: true });
const list = [
  entry('044525225', 'Сбербанк', 'Sberbank', '100000000111'),
  entry('044525593', 'АО "АЛЬФА-БАНК", Москва; центр'),
  entry('044525974', '=HYPERLINK("http://x")', null, '100000000004'),
];

/** The export read back by the import's own reader and checks, as the curate import reads it. */
function readBack(text: string) {
  const parsed = parseBankCsv(new TextEncoder().encode(text));
  assert.ok('entries' in parsed, JSON.stringify(parsed));
  const checked = validateBankList(parsed.entries, parsed.where);
  assert.ok('banks' in checked, JSON.stringify(checked));
  return checked.banks;
}

describe('the bank list as CSV', () => {
  for (const separator of [',', ';'] as const) {
    it(`when the list is exported with "${separator}" and read back, then every curated field is what it was and curating with it changes nothing`, () => {
      const csv = bankListCsv(7, list, separator);
      assert.equal(csv.fileName, 'banks-v7.csv');
      assert.ok(csv.text.startsWith(`\ufeffbic${separator}name${separator}nameEn${separator}sbpMemberId${separator}nameSource${separator}nameEnSource${separator}sbpMemberIdSource\r\n`));
      const banks = readBack(csv.text);
      assert.deepEqual(banks, list.map(({ bic, name, nameEn, sbpMemberId }) => ({ bic, name, nameEn, sbpMemberId })));
      assert.deepEqual(curateFile(list, banks).changes, []);
    });
  }

  it('when a spreadsheet adds empty trailing columns and lines and ends lines with CRLF, then the file still reads as exported', () => {
    const csv = bankListCsv(1, list, ';').text.replace(/\r\n/g, ';;\r\n') + ';;;;;;;;\r\n;;;;;;;;\r\n';
    assert.equal(readBack(csv).length, 3);
  });

  it('when a spreadsheet dropped a BIC\'s leading zero or wrote a member id as 1E+11, then the import refuses that line saying so', () => {
    const parsed = parseBankCsv(new TextEncoder().encode('bic;name;sbpMemberId\r\n44525225;Сбербанк;100000000111\r\n044525974;Т-Банк;1,00E+11\r\n'));
    assert.ok('entries' in parsed);
    const checked = validateBankList(parsed.entries, parsed.where);
    assert.ok('problems' in checked);
    assert.equal(checked.problems[0]!.field, 'line 2.bic');
    assert.match(checked.problems[0]!.message, /44525225 looks like BIC 044525225 without its leading 0/);
    assert.equal(checked.problems[1]!.field, 'line 3.sbpMemberId');
    assert.match(checked.problems[1]!.message, /scientific notation/);
  });
});
