import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createTurnBatch } from './turn-batch.js';

describe('writes grouped by turn of the event loop', () => {
  it('writes the rows asked for in one turn in one call, each caller getting its own result', async () => {
    const calls: number[][] = [];
    const write = createTurnBatch(async (rows: number[]) => {
      calls.push(rows);
      return rows.map((row) => row * 10);
    });
    assert.deepEqual(await Promise.all([1, 2, 3, 4].map((row) => write(row))), [10, 20, 30, 40]);
    assert.deepEqual(calls, [[1, 2, 3, 4]]);
  });

  it('groups the rows that arrive while a write runs into the next call', async () => {
    const calls: number[][] = [];
    let release: () => void = () => {};
    const write = createTurnBatch(async (rows: number[]) => {
      calls.push(rows);
      if (rows[0] === 1) await new Promise<void>((resolve) => (release = resolve));
      return rows;
    });
    const first = write(1);
    await new Promise((resolve) => setImmediate(resolve));
    const later = [2, 3, 4].map((row) => write(row));
    await new Promise((resolve) => setImmediate(resolve));
    release();
    await Promise.all([first, ...later]);
    assert.deepEqual(calls, [[1], [2, 3, 4]]);
  });

  it('fails only the caller whose row the database refused', async () => {
    const write = createTurnBatch(async (rows: string[]) => {
      if (rows.includes('refused')) throw new Error('duplicate key');
      return rows;
    });
    const results = await Promise.allSettled(['a', 'refused', 'b'].map((row) => write(row)));
    assert.deepEqual(results.map((result) => result.status), ['fulfilled', 'rejected', 'fulfilled']);
  });
});
