import assert from 'node:assert/strict';
import { Writable } from 'node:stream';
import { describe, it } from 'node:test';
import type { FastifyBaseLogger } from 'fastify';
import { pino, type Logger } from 'pino';
import { lazyChildLogger } from './lazy-child-logger.js';

/** A warn-level pino logger writing synchronously to `lines`, counting the children it makes. */
function logger(level = 'warn') {
  const lines: Array<Record<string, unknown>> = [];
  const stream = new Writable({
    write(chunk, _encoding, done) {
      lines.push(JSON.parse(String(chunk)) as Record<string, unknown>);
      done();
    },
  });
  const parent = pino({ level }, stream);
  let children = 0;
  const child = parent.child.bind(parent);
  (parent as { child: Logger['child'] }).child = (bindings, options) => {
    children += 1;
    return child(bindings, options);
  };
  return { parent: parent as unknown as FastifyBaseLogger, lines, children: () => children };
}

describe('lazy request logger', () => {
  it('when a request writes nothing at an enabled level, then no child logger is made', () => {
    const { parent, lines, children } = logger();
    const log = lazyChildLogger(parent, { reqId: 'r-1' }, {});
    log.info({ status: 200 }, 'request');
    log.debug('details');
    assert.equal((log as unknown as Logger).isLevelEnabled('info'), false);
    assert.equal(children(), 0);
    assert.equal(lines.length, 0);
  });

  it('when a request writes a line, then it is written by a child bound to the request id, made once', () => {
    const { parent, lines, children } = logger();
    const log = lazyChildLogger(parent, { reqId: 'r-2' }, {});
    log.warn({ reason: 'x' }, 'first');
    log.error('second');
    assert.equal(children(), 1);
    assert.deepEqual(
      lines.map(({ reqId, msg, reason }) => ({ reqId, msg, reason })),
      [
        { reqId: 'r-2', msg: 'first', reason: 'x' },
        { reqId: 'r-2', msg: 'second', reason: undefined },
      ],
    );
  });

  it('when a route gives its own options, or the level is changed, then the child is the real one at once', () => {
    const { parent, lines } = logger();
    const routed = lazyChildLogger(parent, { reqId: 'r-3' }, { level: 'debug' });
    routed.debug('seen');
    const raised = lazyChildLogger(parent, { reqId: 'r-4' }, {});
    raised.level = 'info';
    raised.info('also seen');
    assert.equal(parent.level, 'warn');
    assert.deepEqual(
      lines.map(({ reqId, msg }) => ({ reqId, msg })),
      [
        { reqId: 'r-3', msg: 'seen' },
        { reqId: 'r-4', msg: 'also seen' },
      ],
    );
  });
});
