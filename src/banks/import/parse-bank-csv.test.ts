import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { toWindows1251 } from '../../../test/support/windows-1251.js';
import { validateBankList } from '../bank.js';
import { parseBankCsv } from './parse-bank-csv.js';

const bytes = (text: string) => new TextEncoder().encode(text);

describe('CSV importer', () => {
  it('reads bic,name with quoted names and keeps the leading zero of every BIC', () => {
    const result = parseBankCsv(bytes('\uFEFFbic,name\n044525225,ПАО Сбербанк\n044525593,"АО ""АЛЬФА-БАНК"", Москва"\n'));
    assert.ok('entries' in result);
    assert.deepEqual(result.entries, [
      { bic: '044525225', name: 'ПАО Сбербанк' },
      { bic: '044525593', name: 'АО "АЛЬФА-БАНК", Москва' },
    ]);
  });

  it('names the line of every bad row', () => {
    const result = parseBankCsv(bytes('bic,name\n044525225,Good\n44525225,Number\n044525593,\n044525225,Duplicate\n'));
    assert.ok('entries' in result);
    const validated = validateBankList(result.entries, result.where);
    assert.ok('problems' in validated);
    assert.deepEqual(
      validated.problems.map((problem) => problem.field),
      ['line 3.bic', 'line 4.name', 'line 5.bic'],
    );
  });

  it('refuses a header without bic and name, or with unknown columns', () => {
    const result = parseBankCsv(bytes('code,title\n044525225,X\n'));
    assert.ok('problems' in result);
    assert.equal(result.problems.length, 4);
    assert.equal(result.problems[0]?.line, 1);
  });

  it('decodes the charset it is given', () => {
    const result = parseBankCsv(toWindows1251('bic,name\n044525225,Банк'), 'windows-1251');
    assert.ok('entries' in result);
    assert.equal((result.entries[0] as { name: string }).name, 'Банк');
  });
});
