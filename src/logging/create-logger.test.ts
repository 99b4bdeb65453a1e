import assert from 'node:assert/strict';
import { PassThrough } from 'node:stream';
import { describe, it } from 'node:test';
import { createLogger } from './create-logger.js';

async function written(settings: { LOG_LEVEL: string; NODE_ENV: string }, isTTY: boolean): Promise<string> {
  const stream = new PassThrough();
  let text = '';
  stream.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
  const logger = await createLogger(settings, { isTTY, stream });
  logger.info({ partners: 2 }, 'partner gateway listening');
  logger.debug('not at info');
  await new Promise((resolve) => setImmediate(resolve));
  return text;
}

describe('the gateway\'s log lines', () => {
  it('when in production, then each is JSON with an ISO 8601 time and the level\'s name, even on a terminal', async () => {
    for (const isTTY of [false, true]) {
      const lines = (await written({ LOG_LEVEL: 'info', NODE_ENV: 'production' }, isTTY)).trim().split('\n');
      assert.equal(lines.length, 1);
      const entry = JSON.parse(lines[0]!) as Record<string, unknown>;
      assert.equal(entry.level, 'info');
      assert.match(String(entry.time), /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
      assert.equal(entry.msg, 'partner gateway listening');
      assert.equal(entry.service, 'partner-gateway');
    }
  });

  it('when stdout is not a terminal outside production, then JSON too (a collector reads it)', async () => {
    assert.equal(JSON.parse(await written({ LOG_LEVEL: 'info', NODE_ENV: 'development' }, false)).level, 'info');
  });

  it('when stdout is a terminal outside production, then one readable line each: time, level name, message and fields', async () => {
    const text = await written({ LOG_LEVEL: 'info', NODE_ENV: 'development' }, true);
    assert.equal(text.split('\n').filter(Boolean).length, 1, text);
    assert.match(text, /^\[\d\d:\d\d:\d\d\.\d{3}\] INFO: partner gateway listening \{"partners":2\}\n$/);
  });
});
