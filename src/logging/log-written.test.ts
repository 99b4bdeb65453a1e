import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { destination, pino } from 'pino';
import { logWritten } from './log-written.js';

describe('logWritten', () => {
  it('when lines are still being written by pino\'s asynchronous destination, resolves once all of them are in the file', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'log-written-'));
    try {
      const file = join(dir, 'log.jsonl');
      const stream = destination({ dest: file, sync: false });
      await new Promise((resolve) => stream.once('ready', resolve));
      const logger = pino(stream);
      for (let line = 0; line < 2_000; line++) logger.info({ line, padding: 'x'.repeat(200) }, 'a line');
      await logWritten(logger);
      const written = readFileSync(file, 'utf8').trim().split('\n');
      assert.equal(written.length, 2_000);
      assert.equal(JSON.parse(written.at(-1)!).line, 1_999);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('resolves at once for a destination with nothing in flight, or one that is not pino\'s own', async () => {
    await logWritten(pino({ level: 'silent' }));
    const lines: string[] = [];
    await logWritten(pino({}, { write: (line: string) => lines.push(line) }));
  });
});
