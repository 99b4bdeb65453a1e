import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { abandonedBackoffMs, isDue } from './sync-due.js';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const now = Date.parse('2026-11-28T12:00:00Z');
const run = (outcome: 'applied' | 'failed' | 'started', startedHoursAgo: number, finished: boolean) => ({
  outcome,
  startedAt: new Date(now - startedHoursAgo * HOUR),
  finishedAt: finished ? new Date(now - startedHoursAgo * HOUR + 1000) : null,
});

describe('when a scheduled sync is due', () => {
  it('when nothing has run, or the last run is older than the interval, then it is due', () => {
    assert.equal(isDue([], now, DAY), true);
    assert.equal(isDue([run('applied', 25, true)], now, DAY), true);
    assert.equal(isDue([run('applied', 23, true)], now, DAY), false);
  });

  it('when the last run failed, then it is due after a tenth of the interval, as before', () => {
    assert.equal(isDue([run('failed', 2, true)], now, DAY), false);
    assert.equal(isDue([run('failed', 2.5, true)], now, DAY), true);
  });

  it('when the last runs never finished, then the wait from the last start doubles with each in a row, up to the interval', () => {
    assert.deepEqual([1, 2, 3, 4, 5, 9].map((streak) => abandonedBackoffMs(streak, DAY) / HOUR), [2.4, 4.8, 9.6, 19.2, 24, 24]);
    assert.equal(isDue([run('failed', 0.01, false)], now, DAY), false, 'not at the next start');
    assert.equal(isDue([run('failed', 2.5, false)], now, DAY), true);
    assert.equal(isDue([run('failed', 2.5, false), run('failed', 5, false)], now, DAY), false);
    assert.equal(isDue([run('failed', 5, false), run('failed', 10, false)], now, DAY), true);
    assert.equal(isDue([run('failed', 2.5, false), run('failed', 5, true), run('failed', 7, false)], now, DAY), true, 'a run that finished ends the streak');
  });
});
