import type { SyncRun } from './bank-sync-repository.js';

/** The error of a run whose instance stopped before it ended (marked at the next check, under the sync's lock). */
export const ABANDONED_RUN = 'the run never finished: the instance running it stopped (a crash, running out of memory, or a restart)';

/** Runs the schedule reads to count abandoned runs in a row (the backoff doubles with each, up to the interval). */
export const DUE_HISTORY = 8;

/** A run that was started and never finished: failed, with no end. */
export function isAbandoned(run: Pick<SyncRun, 'outcome' | 'finishedAt'>): boolean {
  return run.outcome === 'failed' && run.finishedAt === null;
}

/**
 * Whether a scheduled run is due, from the latest runs (newest first): none yet; the last one older than the
 * interval; a failed one older than a tenth of it; or, after runs that never finished, a wait from the last one's
 * start that doubles with each in a row (a tenth of the interval, a fifth, ...) up to the interval. A source that
 * stops the instance reading it is then not fetched again at every start of every instance.
 *
 * @example
 * ```ts
 * isDue([{ outcome: 'failed', finishedAt: null, startedAt: tenMinutesAgo }], now, 86_400_000); // false: 2.4 h to wait
 * ```
 */
export function isDue(recent: ReadonlyArray<Pick<SyncRun, 'outcome' | 'startedAt' | 'finishedAt'>>, now: number, intervalMs: number): boolean {
  const [last] = recent;
  if (!last) return true;
  if (isAbandoned(last)) {
    let streak = 0;
    while (streak < recent.length && isAbandoned(recent[streak]!)) streak++;
    return now - last.startedAt.getTime() >= abandonedBackoffMs(streak, intervalMs);
  }
  const age = now - (last.finishedAt ?? last.startedAt).getTime();
  return age >= intervalMs || (last.outcome === 'failed' && age >= intervalMs / 10);
}

/** The wait after `streak` abandoned runs in a row: a tenth of the interval, doubled for each further one, at most the interval. */
export function abandonedBackoffMs(streak: number, intervalMs: number): number {
  return Math.min(intervalMs, (intervalMs / 10) * 2 ** Math.max(0, streak - 1));
}
