import assert from 'node:assert/strict';
import { Writable } from 'node:stream';
import { describe, it } from 'node:test';
import Fastify from 'fastify';
import { pino } from 'pino';
import { errors, texts } from '../../errors.js';
import { fastifyOptions } from '../app.js';
import { errorHandler } from './error-handler.js';

async function appLoggingTo(lines: Array<Record<string, unknown>>) {
  const logger = pino(
    { level: 'info' },
    new Writable({
      write(chunk, _encoding, callback) {
        lines.push(JSON.parse(String(chunk)) as Record<string, unknown>);
        callback();
      },
    }),
  );
  const app = Fastify(fastifyOptions(logger, 1024));
  await app.register(errorHandler, { validation: 'parameter' });
  app.get('/busy', async () => {
    throw errors.busy();
  });
  app.get('/broken', async () => {
    throw new Error('connect ECONNREFUSED 127.0.0.1:5432');
  });
  return app;
}

describe('error handler logging', () => {
  it('logs a failure at error level with its cause, and answers the seed 500 without it', async () => {
    const lines: Array<Record<string, unknown>> = [];
    const app = await appLoggingTo(lines);
    const response = await app.inject({ method: 'GET', url: '/broken' });
    assert.equal(response.statusCode, 500);
    assert.deepEqual(response.json(), { description_status: texts.internal });
    const logged = lines.find((line) => line.msg === 'request failed');
    assert.equal(logged?.level, 50);
    assert.match(String((logged?.err as { stack?: string }).stack), /ECONNREFUSED/);
  });

  it('logs a 503 the gateway chose at warn level with its code and no stack trace, once per code every ten seconds', async () => {
    const lines: Array<Record<string, unknown>> = [];
    const app = await appLoggingTo(lines);
    for (let i = 0; i < 3; i++) assert.equal((await app.inject({ method: 'GET', url: '/busy' })).statusCode, 503);
    const logged = lines.filter((line) => typeof line.level === 'number' && line.level >= 40);
    assert.deepEqual(logged.map((line) => [line.level, line.msg, line.code, 'err' in line]), [[40, 'request refused', 'busy', false]], 'one line for three refusals');
  });
});
