import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { csvCell, formulaDefused } from './csv-cell.js';

/** The cell's text as a spreadsheet reads it: RFC 4180's quotes undone. */
function unquoted(cell: string): string {
  return cell.startsWith('"') ? cell.slice(1, -1).replace(/""/g, '"') : cell;
}

describe('a CSV cell (the audit and bank list exports)', () => {
  it('when a text starts a formula after leading whitespace, then it is defused like one at the start', () => {
    for (const text of ['\n=cmd', ' =1+1', '\t@x', '\r+1', '  -2+3', '\r\n=HYPERLINK("http://x")', '\u00a0=1', '=1', '+1', '-1', '@SUM(A1)']) {
      assert.equal(unquoted(csvCell(text)), `'${text}`, JSON.stringify(text));
    }
  });

  it('when a text starts with anything else, then it is kept as it is (quoted if need be)', () => {
    for (const text of ['acme', ' acme', '1=1', 'a,b', '"quoted"', 'x\n=y', '']) assert.equal(unquoted(csvCell(text)), text, JSON.stringify(text));
    assert.equal(csvCell(-1), '-1', 'a number is a number, not a formula');
    assert.equal(csvCell(null), '');
  });

  it('when any whitespace precedes =, +, - or @, whatever follows, then the spreadsheet sees an apostrophe first', () => {
    const whitespace = fc.array(fc.constantFrom(' ', '\t', '\r', '\n', '\u00a0', '\u2003', '\ufeff'), { maxLength: 5 });
    fc.assert(
      fc.property(whitespace, fc.constantFrom('=', '+', '-', '@'), fc.string(), (lead, start, rest) => {
        const text = `${lead.join('')}${start}${rest}`;
        const read = unquoted(csvCell(text));
        assert.equal(read, `'${text}`);
      }),
    );
  });

  it('when a cell holds a comma, quote or line break, then RFC 4180 reads back exactly the text, apostrophe aside', () => {
    fc.assert(
      fc.property(fc.string(), (text) => {
        const cell = csvCell(text);
        const read = unquoted(cell);
        assert.ok(read === text || read === `'${text}`);
        if (/[",\r\n]/.test(read)) assert.ok(cell.startsWith('"') && cell.endsWith('"'));
      }),
    );
  });

  it('when a cell holds a semicolon, then it is quoted, so that a semicolon-separated file reads it as one cell', () => {
    assert.equal(csvCell('ООО; Банк', ';'), '"ООО; Банк"');
    assert.equal(csvCell('a;b'), '"a;b"', 'quoted whatever the separator: a spreadsheet may guess either');
  });

  it('when a defused formula is read back, then the apostrophe goes and the text is what was written; other apostrophes stay', () => {
    fc.assert(fc.property(fc.string(), (text) => assert.equal(formulaDefused(unquoted(csvCell(text))), text)));
    assert.equal(formulaDefused("'Банк"), "'Банк");
  });
});
