import assert from 'node:assert/strict';
import { Writable } from 'node:stream';
import { describe, it } from 'node:test';
import { pino, type Logger } from 'pino';
import type { FastifyBaseLogger } from 'fastify';
import { lazyRequestLogger } from './lazy-request-logger.js';

/** A real pino logger writing JSON lines into `lines`, counting the children made of it. */
function recordingLogger(level: string) {
  const lines: Array<Record<string, unknown>> = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(JSON.parse(chunk.toString()) as Record<string, unknown>);
      done();
    },
  });
  const logger = pino({ level, base: { service: 'partner-gateway' }, timestamp: false }, stream);
  const counted = { children: 0 };
  // Children inherit it (pino makes them with Object.create), so each child made anywhere below is counted.
  const child = logger.child;
  logger.child = function (this: Logger, ...args: Parameters<Logger['child']>) {
    counted.children += 1;
    return child.apply(this, args);
  } as Logger['child'];
  return { logger, lines, counted };
}

const settled = () => new Promise((resolve) => setImmediate(resolve));

describe('a request\'s logger (lazyRequestLogger)', () => {
  it('when a request writes no line, then no pino child is made, and its level is the parent\'s', () => {
    const { logger, counted } = recordingLogger('warn');
    const requestLogger = lazyRequestLogger(logger as unknown as FastifyBaseLogger, { reqId: 'r-1' }, {});
    assert.equal(requestLogger.level, 'warn');
    assert.equal((requestLogger as unknown as Logger).isLevelEnabled('info'), false);
    requestLogger.info({ status: 200 }, 'request');
    requestLogger.debug('detail');
    assert.equal(counted.children, 0);
  });

  it('when a request writes a line, then it is the line pino\'s own child writes: the request id and the logger\'s bindings', async () => {
    const lazy = recordingLogger('info');
    const eager = recordingLogger('info');
    lazyRequestLogger(lazy.logger as unknown as FastifyBaseLogger, { reqId: 'r-2' }, {}).warn({ reason: 'x' }, 'refused');
    eager.logger.child({ reqId: 'r-2' }).warn({ reason: 'x' }, 'refused');
    await settled();
    assert.deepEqual(lazy.lines, eager.lines);
    assert.equal(lazy.lines[0]!.reqId, 'r-2');
    assert.equal(lazy.lines[0]!.service, 'partner-gateway');
    assert.equal(lazy.counted.children, 1);
  });

  it('when its child is asked for (a traced request), then the lines carry both bindings, and more lines make no more children', async () => {
    const { logger, lines, counted } = recordingLogger('info');
    const requestLogger = lazyRequestLogger(logger as unknown as FastifyBaseLogger, { reqId: 'r-3' }, {});
    requestLogger.child({ traceId: 't-1' }).info('traced');
    requestLogger.info('again');
    requestLogger.error('and again');
    await settled();
    assert.deepEqual(lines.map(({ reqId, traceId, msg }) => ({ reqId, traceId, msg })), [
      { reqId: 'r-3', traceId: 't-1', msg: 'traced' },
      { reqId: 'r-3', traceId: undefined, msg: 'again' },
      { reqId: 'r-3', traceId: undefined, msg: 'and again' },
    ]);
    assert.equal(counted.children, 2, 'the request\'s, and the traced one of it');
  });

  it('when a route sets its own level, then the child is made at once with it', () => {
    const { logger, counted } = recordingLogger('warn');
    const requestLogger = lazyRequestLogger(logger as unknown as FastifyBaseLogger, { reqId: 'r-4' }, { level: 'debug' });
    assert.equal(counted.children, 1);
    assert.equal(requestLogger.level, 'debug');
  });
});
