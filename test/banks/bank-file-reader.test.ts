import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { AppError } from '../../src/errors.js';
import { createBankFileReader } from '../../src/banks/import/bank-file-reader.js';

// The reader's worker threads, started from source (tsx compiles each one's modules: 1-2 s a start), so a test of
// test/ rather than one beside the code: the unit tier starts no thread.
const MiB = 1024 * 1024;
const csv = (rows: string) => Buffer.from(`bic,name\n${rows}`);
const refusal = (error: unknown) => (error instanceof AppError ? [error.status, error.code] : [0, String(error)]);
const tinyElements = (count: number) => Buffer.from(`<ED807 xmlns="urn:cbr-ru:ed:v2.0">${'<a/>'.repeat(count)}</ED807>`);

describe('the bank file reader (worker threads kept between readings)', () => {
  it('when files are read one after another, then each answer is its own file\'s, whatever the one before it was', async () => {
    const reader = createBankFileReader({ maxBytes: 4 * MiB });
    const first = await reader.importFile(csv('044525225,Сбербанк\n'), 'text/csv');
    const bad = await reader.importFile(csv('x,\n'), 'text/csv').then(() => 'read', refusal);
    const second = await reader.importFile(csv('044525974,Т-Банк\n044525593,Альфа-Банк\n'), 'text/csv');
    assert.deepEqual(first.kind === 'file' && first.rows.map((row) => row.bic), ['044525225']);
    assert.deepEqual(bad, [422, 'validation_failed']);
    assert.deepEqual(second.kind === 'file' && second.rows.map((row) => row.bic), ['044525974', '044525593']);
  });

  it('when a reading runs out of its time, then it is refused import_too_demanding and the next file is read by a fresh worker', async () => {
    // The limit binds every reading of this reader: 1 s is a hundred times what a small CSV takes (10 ms here,
    // a fresh worker included) and a third of what a million elements take (about 3 s). At 300 ms a busy machine
    // could refuse the good files too.
    const reader = createBankFileReader({ maxBytes: 4 * MiB, workerTimeMs: 1_000 });
    await reader.importFile(csv('044525225,Сбербанк\n'), 'text/csv');
    assert.deepEqual(await reader.importFile(tinyElements(1_000_000), 'application/xml').then(() => 'read', refusal), [422, 'import_too_demanding']);
    const next = await reader.importFile(csv('044525974,Т-Банк\n'), 'text/csv');
    assert.deepEqual(next.kind === 'file' && next.rows.map((row) => row.bic), ['044525974']);
  });

  it('when a reading runs out of its memory, then it is refused import_too_demanding and the next file is read', async () => {
    const reader = createBankFileReader({ maxBytes: 4 * MiB, workerHeapMb: 24 });
    assert.deepEqual(await reader.importFile(tinyElements(1_000_000), 'application/xml').then(() => 'read', refusal), [422, 'import_too_demanding']);
    const next = await reader.importFile(csv('044525974,Т-Банк\n'), 'text/csv');
    assert.deepEqual(next.kind === 'file' && next.rows.map((row) => row.bic), ['044525974']);
  });

  it('when a third file arrives while two are being read, then it is refused busy and the two are answered', async () => {
    const reader = createBankFileReader({ maxBytes: 4 * MiB });
    const reading = [reader.importFile(tinyElements(200_000), 'application/xml').then(() => 'read', refusal), reader.importFile(tinyElements(200_000), 'application/xml').then(() => 'read', refusal)];
    const third = await reader.importFile(csv('044525225,Сбербанк\n'), 'text/csv').then(() => 'read', refusal);
    assert.deepEqual(third[0], 503);
    assert.deepEqual((await Promise.all(reading)).map((answer) => answer[0]), [422, 422]);
  });
});
