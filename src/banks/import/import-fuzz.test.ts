import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { AppError } from '../../errors.js';
import { toWindows1251 } from '../../../test/support/windows-1251.js';
import { validateBankList, type Bank } from '../bank.js';
import { csvCell } from '../../csv/csv-cell.js';
import { parseBankFile } from './parse-bank-file.js';

// Properties of the import readers (JSON, CSV, ED807 XML): whatever the bytes, a reader either returns
// entries or a list of problems (each an ErrorDetail the admin API answers with a 422); only an unknown
// Content-Type throws, and only the 415. Valid bank lists written in any of the formats read back unchanged.

const RUNS = { numRuns: 400 };
const utf8 = (text: string) => new TextEncoder().encode(text);

const CONTENT_TYPES = [
  'application/json',
  'text/csv',
  'text/csv; charset=utf-8',
  'text/csv; charset=windows-1251',
  'text/csv; charset="utf-16le"',
  'text/csv; charset=__proto__',
  'text/csv; charset=',
  'application/xml',
  'text/xml',
  'APPLICATION/XML; charset=utf-8',
];

/** Reads `bytes` as `contentType` and checks the outcome is one a 422 or 415 can carry, never an exception. */
function readsOrRefuses(bytes: Uint8Array, contentType: string | undefined, context: unknown): ReturnType<typeof parseBankFile> | undefined {
  let result: ReturnType<typeof parseBankFile>;
  try {
    result = parseBankFile(bytes, contentType);
  } catch (error) {
    assert.ok(error instanceof AppError && error.status === 415, `threw ${String((error as Error)?.stack ?? error)} for ${JSON.stringify(context).slice(0, 300)}`);
    return undefined;
  }
  if ('problems' in result) {
    assert.ok(result.problems.length > 0, 'problems, but none listed');
    for (const problem of result.problems) assert.ok(typeof problem.message === 'string' && problem.message.length > 0);
    return result;
  }
  assert.ok(Array.isArray(result.entries));
  const validated = validateBankList(result.entries, result.where);
  if ('problems' in validated) for (const problem of validated.problems) assert.ok(problem.message.length > 0 && typeof problem.field === 'string');
  return result;
}

/** Text with the characters that break naive readers: quotes, separators, line ends, markup, non-ASCII. */
const tricky = (maxLength = 30) =>
  fc
    .array(
      fc.oneof(
        { weight: 4, arbitrary: fc.string({ unit: 'binary', minLength: 1, maxLength: 3 }) },
        { weight: 3, arbitrary: fc.constantFrom('"', "'", ',', ';', '\n', '\r\n', '\r', '\t', ' ', '<', '>', '&', '&amp;', '&lt;', '&#x41;', '&#0;', ']]>', '\uFEFF', 'Ё', 'я', '\0') },
      ),
      { maxLength },
    )
    .map((parts) => parts.join(''));

const bicLike = fc.oneof(
  fc.integer({ min: 0, max: 9_999_999 }).map((n) => `04${String(n).padStart(7, '0')}`),
  fc.stringMatching(/^[0-9]{0,12}$/),
  tricky(12),
);

describe('bank import readers', () => {
  it('never throw on any bytes under any import Content-Type; an unknown type is the 415', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 300 }), fc.option(fc.oneof(fc.constantFrom(...CONTENT_TYPES), fc.string({ maxLength: 30 })), { nil: undefined }), (bytes, type) => {
        readsOrRefuses(bytes, type, { type, bytes: Buffer.from(bytes).toString('hex') });
      }),
      RUNS,
    );
  });

  it('never throw on any CSV: any header, quoting, row lengths and charset', () => {
    const column = fc.oneof(fc.constantFrom('bic', 'name', 'nameEn', 'sbpMemberId', '__proto__', 'constructor', 'toString', '', ' bic '), tricky(8));
    const cell = fc.oneof(bicLike, tricky(), tricky().map((text) => `"${text.replace(/"/g, '""')}"`));
    const csv = fc
      .tuple(fc.array(column, { minLength: 1, maxLength: 5 }), fc.array(fc.array(cell, { maxLength: 5 }), { maxLength: 6 }), fc.constantFrom('\n', '\r\n'))
      .map(([header, rows, eol]) => [header.join(','), ...rows.map((row) => row.join(','))].join(eol));
    fc.assert(
      fc.property(csv, fc.constantFrom('text/csv', 'text/csv; charset=utf-8', 'text/csv; charset=utf-16le'), (text, type) => {
        readsOrRefuses(utf8(text), type, text);
      }),
      RUNS,
    );
  });

  it('never throw on any XML shaped like an ED807: any elements, attributes, entities and declared encoding', () => {
    const name = fc.oneof(
      fc.constantFrom('ED807', 'ed:ED807', 'BICDirectoryEntry', 'ParticipantInfo', 'RstrList', 'Accounts', 'SWBICS', '__proto__', 'constructor', 'prototype', 'toString', 'hasOwnProperty'),
      fc.stringMatching(/^[A-Za-z_][A-Za-z0-9_.-]{0,8}$/),
    );
    const attributeValue = fc.oneof(bicLike, fc.constantFrom('20', '30', '4', '5', '6', 'PSAC', 'PSDL', 'urn:cbr-ru:ed:v2.0', '&amp;', '&bogus;', '&#xFFFFFF;'), tricky(12));
    const attributes = fc.dictionary(
      fc.oneof(fc.constantFrom('BIC', 'NameP', 'EnglName', 'PtType', 'Srvcs', 'ParticipantStatus', 'xmlns', 'xmlns:ed', '__proto__', 'constructor'), fc.stringMatching(/^[A-Za-z_][A-Za-z0-9_]{0,6}$/)),
      attributeValue.map((value) => value.replace(/"/g, '&quot;')),
      { maxKeys: 5 },
    );
    const element: fc.Memo<string> = fc.memo((depth) =>
      fc
        .tuple(name, attributes, depth <= 1 ? fc.constant([] as string[]) : fc.array(element(depth - 1), { maxLength: 3 }), fc.option(tricky(10), { nil: undefined }))
        .map(([tag, attrs, children, text]) => {
          const rendered = Object.entries(attrs).map(([key, value]) => ` ${key}="${value}"`).join('');
          const inner = children.join('') + (text ?? '');
          return inner === '' ? `<${tag}${rendered}/>` : `<${tag}${rendered}>${inner}</${tag}>`;
        }),
    );
    const root = fc
      .tuple(fc.array(element(3), { maxLength: 4 }), attributes)
      .map(([children, attrs]) => `<ED807 xmlns="urn:cbr-ru:ed:v2.0"${Object.entries(attrs).map(([key, value]) => ` ${key}="${value}"`).join('')}>${children.join('')}</ED807>`);
    const prolog = fc.oneof(
      fc.constant(''),
      fc.constantFrom('UTF-8', 'windows-1251', 'utf-16', 'x-unknown', 'latin1', '').map((encoding) => `<?xml version="1.0" encoding="${encoding}"?>`),
      fc.constantFrom(
        '<!DOCTYPE ED807 [<!ENTITY a "x">]>',
        '<!DOCTYPE ED807 SYSTEM "file:///etc/passwd">',
        '<!DOCTYPE ED807 [<!ENTITY x SYSTEM "file:///etc/passwd">]>',
        '<!DOCTYPE ED807 [<!ELEMENT>]>',
        '<!-- a comment -->',
        '<?pi data?>',
      ),
    );
    const document = fc.tuple(prolog, fc.oneof(root, element(3)), fc.option(tricky(5), { nil: undefined })).map(([head, body, junk]) => `${head}${body}${junk ?? ''}`);
    fc.assert(
      fc.property(document, fc.constantFrom('application/xml', 'text/xml'), (xml, type) => {
        readsOrRefuses(utf8(xml), type, xml);
        assert.equal(({} as Record<string, unknown>).polluted, undefined);
      }),
      RUNS,
    );
  });

  it('never throw on any JSON import, and list a problem for every bad entry', () => {
    const entry = fc.oneof(
      fc.jsonValue({ maxDepth: 2 }),
      fc.record({ bic: fc.oneof(bicLike, fc.jsonValue({ maxDepth: 1 })), name: fc.oneof(tricky(), fc.jsonValue({ maxDepth: 1 })), nameEn: fc.jsonValue({ maxDepth: 1 }), sbpMemberId: fc.jsonValue({ maxDepth: 1 }) }, { requiredKeys: [] }),
    );
    const file = fc.oneof(fc.jsonValue({ maxDepth: 3 }), fc.array(entry, { maxLength: 6 }), fc.record({ banks: fc.array(entry, { maxLength: 6 }) }));
    fc.assert(
      fc.property(file, (value) => {
        readsOrRefuses(utf8(JSON.stringify(value)), 'application/json', value);
      }),
      RUNS,
    );
  });

  describe('read back a valid bank list written in each format', () => {
    const nameText = (alphabet: fc.Arbitrary<string>) =>
      fc
        .array(alphabet, { minLength: 1, maxLength: 40 })
        .map((chars) => chars.join('').trim())
        .filter((name) => name.length > 0);
    const cyrillic = fc.integer({ min: 0x410, max: 0x44f }).map((code) => String.fromCharCode(code));
    const anyName = nameText(fc.oneof(fc.string({ unit: 'grapheme', minLength: 1, maxLength: 1 }), cyrillic, fc.constantFrom('"', "'", ',', '&', '<', '>', ' ', '«', '»', '&amp;')));
    const win1251Name = nameText(fc.oneof(cyrillic, fc.constantFrom('"', "'", ',', '&', '<', '>', ' ', '-', '.', 'A', 'z', '0')));
    const banks = (name: fc.Arbitrary<string>) =>
      fc
        .uniqueArray(fc.tuple(fc.integer({ min: 0, max: 9_999_999 }).map((n) => `04${String(n).padStart(7, '0')}`), name), {
          minLength: 1,
          maxLength: 8,
          selector: ([bic]) => bic,
        })
        .map((pairs) => pairs.map(([bic, bankName]) => ({ bic, name: bankName })));
    // Written as the bank list's export writes a cell: quoted, and a formula (or a defused one) behind an apostrophe the reader drops.
    const csvField = (value: string) => {
      const cell = csvCell(value);
      return cell.startsWith('"') ? cell : `"${cell.replace(/"/g, '""')}"`;
    };
    const xmlAttribute = (value: string) => value.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
    const ed807 = (list: Array<{ bic: string; name: string }>, encoding: string) =>
      `<?xml version="1.0" encoding="${encoding}"?>\n<ED807 xmlns="urn:cbr-ru:ed:v2.0" EDNo="1">` +
      list
        .map((bank) => `<BICDirectoryEntry BIC="${bank.bic}"><ParticipantInfo NameP="${xmlAttribute(bank.name)}" PtType="20" Srvcs="5" ParticipantStatus="PSAC"/></BICDirectoryEntry>`)
        .join('\n') +
      '</ED807>';

    const readBack = (bytes: Uint8Array, type: string): Array<Pick<Bank, 'bic' | 'name'>> => {
      const parsed = parseBankFile(bytes, type);
      assert.ok('entries' in parsed, JSON.stringify(parsed));
      const validated = validateBankList(parsed.entries, parsed.where);
      assert.ok('banks' in validated, JSON.stringify(validated));
      return validated.banks.map(({ bic, name }) => ({ bic, name }));
    };

    it('as JSON', () => {
      fc.assert(
        fc.property(banks(anyName), (list) => {
          assert.deepEqual(readBack(utf8(JSON.stringify({ banks: list })), 'application/json'), list);
          assert.deepEqual(readBack(utf8(JSON.stringify(list)), 'application/json'), list);
        }),
        RUNS,
      );
    });

    it('as CSV, in UTF-8 and in Windows-1251', () => {
      fc.assert(
        fc.property(banks(anyName), banks(win1251Name), (list, cyrillicList) => {
          const csv = (rows: typeof list) => `bic,name\r\n${rows.map((bank) => `${bank.bic},${csvField(bank.name)}`).join('\r\n')}\r\n`;
          assert.deepEqual(readBack(utf8(csv(list)), 'text/csv'), list);
          assert.deepEqual(readBack(toWindows1251(csv(cyrillicList)), 'text/csv; charset=windows-1251'), cyrillicList);
        }),
        RUNS,
      );
    });

    it('as an ED807 directory, in UTF-8 and in Windows-1251', () => {
      fc.assert(
        fc.property(banks(anyName), banks(win1251Name), (list, cyrillicList) => {
          assert.deepEqual(readBack(utf8(ed807(list, 'UTF-8')), 'application/xml'), list);
          assert.deepEqual(readBack(toWindows1251(ed807(cyrillicList, 'windows-1251')), 'application/xml'), cyrillicList);
        }),
        RUNS,
      );
    });
  });

  it('refuse bytes that are not valid in the declared or default charset with a problem, in every format', () => {
    const invalid = Buffer.from([0xff, 0xfe, 0xc3, 0x28, 0xed, 0xa0, 0x80]);
    const cases: Array<[Uint8Array, string]> = [
      [Buffer.concat([utf8('bic,name\n044525225,'), invalid, utf8('\n')]), 'text/csv'],
      [Buffer.concat([utf8('bic,name\n044525225,'), invalid, utf8('\n')]), 'text/csv; charset=utf-8'],
      [Buffer.concat([utf8('{"banks":[{"bic":"044525225","name":"'), invalid, utf8('"}]}')]), 'application/json'],
      [Buffer.concat([utf8('<?xml version="1.0" encoding="UTF-8"?><ED807 xmlns="urn:cbr-ru:ed:v2.0"><BICDirectoryEntry BIC="044525225"><ParticipantInfo NameP="'), invalid, utf8('" PtType="20" Srvcs="5" ParticipantStatus="PSAC"/></BICDirectoryEntry></ED807>')]), 'application/xml'],
      [Buffer.concat([utf8('<ED807 xmlns="urn:cbr-ru:ed:v2.0">'), invalid, utf8('</ED807>')]), 'text/xml'],
    ];
    for (const [bytes, type] of cases) {
      const result = readsOrRefuses(bytes, type, type);
      assert.ok(result && 'problems' in result, `${type}: ${JSON.stringify(result)}`);
      assert.match(result.problems[0]!.message, /not valid|character set/);
    }
  });

  it('refuse XML with prototype-polluting names, external entities or a broken DOCTYPE with a problem, and pollute nothing', () => {
    const documents = [
      '<ED807 xmlns="urn:cbr-ru:ed:v2.0"><__proto__ polluted="yes"/></ED807>',
      '<ED807 xmlns="urn:cbr-ru:ed:v2.0"><constructor><prototype polluted="yes"/></constructor></ED807>',
      '<ED807 xmlns="urn:cbr-ru:ed:v2.0" __proto__="yes"></ED807>',
      '<ED807 xmlns="urn:cbr-ru:ed:v2.0"><BICDirectoryEntry BIC="044525225" constructor="x"><ParticipantInfo NameP="x" PtType="20" Srvcs="5" ParticipantStatus="PSAC"/></BICDirectoryEntry></ED807>',
      '<?xml version="1.0"?><!DOCTYPE ED807 [<!ENTITY x SYSTEM "file:///etc/passwd">]><ED807 xmlns="urn:cbr-ru:ed:v2.0">&x;</ED807>',
      '<?xml version="1.0"?><!DOCTYPE ED807 [<!ENTITY a "x"><!ELEMENT>]><ED807 xmlns="urn:cbr-ru:ed:v2.0"></ED807>',
    ];
    for (const xml of documents) {
      const result = readsOrRefuses(utf8(xml), 'application/xml', xml);
      assert.ok(result && 'problems' in result, `${xml}: ${JSON.stringify(result)}`);
    }
    assert.equal(({} as Record<string, unknown>).polluted, undefined);
  });

  it('read entity expansions (billion laughs) without expanding them, refused or read, never thrown', () => {
    const entities = Array.from({ length: 9 }, (_, i) => `<!ENTITY a${i + 1} "${`&a${i};`.repeat(10)}">`).join('');
    const xml = `<?xml version="1.0"?><!DOCTYPE ED807 [<!ENTITY a0 "${'a'.repeat(60)}">${entities}]><ED807 xmlns="urn:cbr-ru:ed:v2.0"><BICDirectoryEntry BIC="044000001"><ParticipantInfo NameP="&a9;" PtType="20" Srvcs="5" ParticipantStatus="PSAC"/></BICDirectoryEntry></ED807>`;
    const result = readsOrRefuses(utf8(xml), 'application/xml', 'billion laughs');
    // The work done, not the time taken: &a9; expanded would be 60 000 000 000 characters; what comes out is
    // no bigger than what went in.
    assert.ok(JSON.stringify(result ?? null).length < xml.length, JSON.stringify(result).slice(0, 300));
  });

  it('read a 100 000-entry JSON import and count a problem for each bad entry, listing the first 100', () => {
    const valid = Array.from({ length: 100_000 }, (_, i) => ({ bic: `04${String(i).padStart(7, '0')}`, name: `Bank ${i}` }));
    const good = readsOrRefuses(utf8(JSON.stringify({ banks: valid })), 'application/json', 'valid');
    assert.ok(good && 'entries' in good && good.entries.length === 100_000);
    const bad = parseBankFile(utf8(JSON.stringify(Array.from({ length: 100_000 }, () => ({})))), 'application/json');
    assert.ok('entries' in bad);
    const validated = validateBankList(bad.entries, bad.where);
    // Every problem counted, the first 100 kept (issue 33: a list of them all once ran the gateway out of memory).
    assert.ok('problems' in validated && validated.problems.length === 100 && validated.total === 200_000);
  });
});
