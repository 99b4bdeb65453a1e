import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { TABLE_WIDTH, table } from './cli-io.js';

const widest = (text: string) => Math.max(...text.split('\n').map((line) => line.length));

describe('table', () => {
  const long = 'Публичное акционерное общество «Очень Длинное Название Банка, Которое Не Помещается В Строку»';
  const rows = [
    ['044525225', long, 'A very long English name of the same bank that no terminal line can hold either', '100000000111'],
    ['044525974', 'Т-Банк', 'T-Bank', '100000000004'],
  ];
  const headers = ['BIC', 'NAME', 'ENGLISH NAME', 'SBP MEMBER ID'];

  it('when the rows fit, prints them whole and aligned', () => {
    assert.equal(table(['BIC', 'NAME'], [['044525974', 'Т-Банк'], ['044525225', 'Сбербанк']]), 'BIC        NAME\n044525974  Т-Банк\n044525225  Сбербанк');
  });

  it('when they do not, fits 100 columns by cutting the widest cells with …, the cutLast columns only when nothing else gives', () => {
    const text = table(headers, rows, { cutLast: ['BIC', 'SBP MEMBER ID'] });
    assert.equal(TABLE_WIDTH, 100);
    assert.ok(widest(text) <= TABLE_WIDTH, text);
    const [, first, second] = text.split('\n');
    assert.match(first!, /^044525225  Публичное акционерное общество.*…  A very long English.*…  100000000111$/);
    assert.match(second!, /^044525974  Т-Банк\s+T-Bank\s+100000000004$/);
  });

  it('with wide, prints every cell whole', () => {
    const text = table(headers, rows, { wide: true });
    assert.ok(text.includes(long) && text.includes(rows[0]![2]!));
    assert.ok(!text.includes('…'));
  });

  it('cuts a cutLast column once the others are as narrow as their headers', () => {
    const text = table(['CODE', 'N'], [['c'.repeat(120), 'n'.repeat(50)]], { cutLast: ['CODE'] });
    assert.equal(text.split('\n')[1], `${'c'.repeat(96)}…  …`);
  });

  it('never narrows a column below its header, nor cuts a surrogate pair in half', () => {
    const text = table(['A', 'B'], [['x'.repeat(60), `${'y'.repeat(45)}😀😀😀😀😀😀😀😀😀😀`]]);
    assert.ok(widest(text) <= TABLE_WIDTH);
    assert.doesNotMatch(text, /[\uD800-\uDBFF](?![\uDC00-\uDFFF])/, 'no lone high surrogate');
    const narrow = table(['LONG HEADER'], [['z'.repeat(200)]]);
    assert.equal(narrow.split('\n')[1]!.length, TABLE_WIDTH);
  });
});
