import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { projectFile } from '../../project-root.js';
import { toWindows1251 } from '../../../test/support/windows-1251.js';
import { validateBankList } from '../bank.js';
import { parseEd807 } from './parse-ed807.js';

const REAL_DIRECTORY = projectFile('../shared/data/20230518_ED807_full.xml');

function entries(xml: string) {
  const result = parseEd807(new TextEncoder().encode(xml));
  assert.ok('entries' in result, JSON.stringify(result));
  return result.entries as Array<{ bic: string; name: string }>;
}

const directory = (body: string, encoding = 'UTF-8') =>
  `<?xml version="1.0" encoding="${encoding}"?><ED807 xmlns="urn:cbr-ru:ed:v2.0" EDNo="1">${body}</ED807>`;
const entry = (bic: string, attributes: string, inner = '') =>
  `<BICDirectoryEntry BIC="${bic}"><ParticipantInfo NameP="Bank ${bic}" ${attributes}>${inner}</ParticipantInfo></BICDirectoryEntry>`;

describe('ED807 importer', () => {
  it('reads the real Windows-1251 Bank of Russia directory as it is and keeps its 214 SBP head offices', () => {
    const result = parseEd807(readFileSync(REAL_DIRECTORY));
    assert.ok('entries' in result);
    assert.equal(result.entries.length, 214);
    const validated = validateBankList(result.entries, result.where);
    assert.ok('banks' in validated, JSON.stringify(validated).slice(0, 500));
    const byBic = new Map(validated.banks.map((bank) => [bank.bic, bank]));
    assert.equal(byBic.get('044525225')?.name, 'ПАО Сбербанк');
    assert.equal(byBic.get('044525225')?.nameEn, 'SBERBANK');
    assert.equal(byBic.get('044525593')?.name, 'АО "АЛЬФА-БАНК"', 'XML entities are decoded');
  });

  it('contains every BIC of the shipped default list', () => {
    const result = parseEd807(readFileSync(REAL_DIRECTORY));
    assert.ok('entries' in result);
    const bics = new Set((result.entries as Array<{ bic: string }>).map((e) => e.bic));
    const defaults = JSON.parse(readFileSync(projectFile('seeds/sbp-banks.json'), 'utf8')).banks as Array<{ bic: string }>;
    assert.deepEqual(defaults.filter((bank) => !bics.has(bank.bic)), []);
  });

  it('keeps only head offices (PtType 20) with SBP service codes 4, 5 or 6, active and unrestricted', () => {
    const kept = entries(
      directory(
        entry('044000001', 'PtType="20" Srvcs="4" ParticipantStatus="PSAC"') +
          entry('044000002', 'PtType="20" Srvcs="5" ParticipantStatus="PSAC"') +
          entry('044000003', 'PtType="20" Srvcs="6" ParticipantStatus="PSAC"') +
          entry('044000004', 'PtType="20" Srvcs="3" ParticipantStatus="PSAC"') +
          entry('044000005', 'PtType="30" Srvcs="5" ParticipantStatus="PSAC"') +
          entry('044000006', 'PtType="20" Srvcs="5" ParticipantStatus="PSDL"') +
          entry('044000007', 'PtType="20" Srvcs="5" ParticipantStatus="PSAC"', '<RstrList Rstr="URRS" RstrDate="2020-01-01"/>'),
      ),
    );
    assert.deepEqual(kept.map((e) => e.bic), ['044000001', '044000002', '044000003']);
  });

  it('decodes by the XML declaration: UTF-8 and Windows-1251 give the same names', () => {
    const xml = directory(entry('044000001', 'PtType="20" Srvcs="5" ParticipantStatus="PSAC"').replace('Bank 044000001', 'Банк &amp; Ко'), 'windows-1251');
    const encoded = toWindows1251(xml);
    const result = parseEd807(encoded);
    assert.ok('entries' in result);
    assert.equal((result.entries[0] as { name: string }).name, 'Банк & Ко');
    assert.equal(entries(xml.replace('windows-1251', 'UTF-8'))[0]?.name, 'Банк & Ко');
  });

  it('reports malformed XML with its line, and a document that is not an ED807', () => {
    const broken = parseEd807(new TextEncoder().encode('<?xml version="1.0"?>\n<ED807 xmlns="urn:cbr-ru:ed:v2.0">\n<BICDirectoryEntry>\n</ED807>'));
    assert.ok('problems' in broken);
    assert.equal(broken.problems[0]?.line, 4);
    const foreign = parseEd807(new TextEncoder().encode('<?xml version="1.0"?><ED807 xmlns="urn:other"></ED807>'));
    assert.ok('problems' in foreign);
    assert.match(foreign.problems[0]!.message, /urn:cbr-ru:ed:v2.0/);
    const other = parseEd807(new TextEncoder().encode('<banks/>'));
    assert.ok('problems' in other);
  });
});
