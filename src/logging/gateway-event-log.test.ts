import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { AuditEntryDroppedError } from '../audit/audit-writer.js';
import { logGatewayEvents } from './gateway-event-log.js';

/** A logger that keeps its lines: level, fields and message. */
function recordingLogger() {
  const lines: Array<{ level: 'warn' | 'error'; fields: Record<string, unknown>; message: string }> = [];
  const at = (level: 'warn' | 'error') => (fields: Record<string, unknown>, message: string) => lines.push({ level, fields, message });
  return { lines, logger: { warn: at('warn'), error: at('error') } as never };
}

describe('logGatewayEvents', () => {
  it('when Redis keeps failing, then one warning is logged per ten seconds, with the error', () => {
    let now = 0;
    const { lines, logger } = recordingLogger();
    const log = logGatewayEvents(logger, () => 0, () => now);
    const error = new Error('ECONNREFUSED');
    log({ type: 'redis_failed', error });
    log({ type: 'redis_failed', error });
    now = 9_999;
    log({ type: 'redis_failed', error });
    now = 10_000;
    log({ type: 'redis_failed', error });
    assert.deepEqual(lines.map((line) => [line.level, line.message, line.fields.err]), [
      ['warn', 'Redis unavailable; using the database', error],
      ['warn', 'Redis unavailable; using the database', error],
    ]);
  });

  it('when audit entries wait for the database, then the warning says how many are pending; a dropped entry is an error every time', () => {
    const { lines, logger } = recordingLogger();
    const log = logGatewayEvents(logger, () => 42, () => 0);
    log({ type: 'audit_write_failed', error: new Error('down') });
    const dropped = new AuditEntryDroppedError({ at: new Date(0), action: 'login', outcome: 'success', status: 200, partner: null, clientAddress: null, reason: null, requestId: 'r', details: null }, 1, { cause: new Error('22P05') });
    log({ type: 'audit_write_failed', error: dropped });
    log({ type: 'audit_write_failed', error: dropped });
    assert.deepEqual(lines.map((line) => [line.level, line.message, line.fields.pending]), [
      ['warn', 'audit entries not written yet; they stay queued', 42],
      ['error', 'audit entry dropped: the database refused its data', undefined],
      ['error', 'audit entry dropped: the database refused its data', undefined],
    ]);
  });

  it('when JWEs are found accepted twice or journal entries dropped, then each event is an error with its count, never rate-limited', () => {
    const { lines, logger } = recordingLogger();
    const log = logGatewayEvents(logger, () => 0, () => 0);
    log({ type: 'replay_conflict', jtis: ['a', 'b'] });
    log({ type: 'replay_conflict', jtis: ['c'] });
    log({ type: 'replay_journal_dropped', count: 3 });
    assert.deepEqual(lines.map((line) => [line.level, line.fields.count]), [['error', 2], ['error', 1], ['error', 3]]);
  });
});
