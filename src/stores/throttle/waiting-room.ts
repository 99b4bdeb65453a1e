/** This instance's password checks waiting for a place in the brute-force count (see BruteForceGuard.attempt). */
export interface WaitingRoom {
  /** A number that orders a check among the others: the lower, the earlier in every line it joins. */
  ticket(): number;
  /** True when a check of this instance already waits on one of `keys`. */
  occupied(keys: readonly string[]): boolean;
  /**
   * Waits in line on every one of `keys` (ordered by `since`) until woken by `released`, until `deadline`
   * (a Date.now() value), or, once first in every line it is in, for `pollMs`: the first in line asks the
   * store again for places held by other instances, those behind it need not.
   */
  wait(keys: readonly string[], since: number, pollMs: number, deadline: number): Promise<'released' | 'timed out'>;
  /** A place on each of `keys` was given back: wakes the first waiter of each. */
  released(keys: readonly string[]): void;
}

interface Waiter {
  since: number;
  keys: readonly string[];
  /** Starts the poll timer, once this waiter is first in every line it is in. */
  first(): void;
  wake(why: 'released' | 'timed out'): void;
}

/**
 * This instance's checks waiting for a place, per key, oldest first. A check that gives its place back wakes
 * the first waiter of each of its keys, so that a burst of waiters costs the store one reservation per place
 * given back, rather than one per waiter every few milliseconds: with 64 concurrent logins, polling every
 * 20-60 ms was a thousand transactions a second, which on PGlite's single connection starved every other
 * query. Places held by other instances are noticed by the first waiter of a line asking the store again
 * every `pollMs`. It only orders and delays this instance's checks: every place is still taken and given back
 * in the store, which alone decides who gets one.
 *
 * @example
 * const since = room.ticket();
 * await room.wait(keys, since, 250, Date.now() + 10_000); // woken by room.released(keys), a poll, or the deadline
 */
export function createWaitingRoom(): WaitingRoom {
  const queues = new Map<string, Waiter[]>();
  let arrivals = 0;
  const isFirst = (waiter: Waiter) => waiter.keys.every((key) => queues.get(key)?.[0] === waiter);
  return {
    ticket: () => arrivals++,
    occupied: (keys) => keys.some((key) => queues.has(key)),
    wait(keys, since, pollMs, deadline) {
      return new Promise((resolve) => {
        let woken = false;
        let polling = false;
        let timer = setTimeout(() => waiter.wake('timed out'), Math.max(0, deadline - Date.now()));
        const waiter: Waiter = {
          since,
          keys,
          first() {
            if (polling || woken) return;
            polling = true;
            clearTimeout(timer);
            timer = setTimeout(() => waiter.wake('timed out'), Math.max(0, Math.min(pollMs, deadline - Date.now())));
          },
          wake(why) {
            if (woken) return;
            woken = true;
            clearTimeout(timer);
            for (const key of keys) {
              const queue = queues.get(key)!;
              const at = queue.indexOf(waiter);
              queue.splice(at, 1);
              if (queue.length === 0) queues.delete(key);
              else if (at === 0 && isFirst(queue[0]!)) queue[0]!.first();
            }
            resolve(why);
          },
        };
        for (const key of keys) {
          const queue = queues.get(key) ?? [];
          queues.set(key, queue);
          const after = queue.findIndex((other) => other.since > since);
          queue.splice(after === -1 ? queue.length : after, 0, waiter);
        }
        if (isFirst(waiter)) waiter.first();
      });
    },
    released(keys) {
      for (const key of keys) queues.get(key)?.[0]?.wake('released');
    },
  };
}
