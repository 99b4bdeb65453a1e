/**
 * Wraps `work` so that concurrent calls share one run: a call while it runs gets the same promise, a call
 * after it settled starts a new one. A failure is not kept, so the next call tries again.
 *
 * @example
 * ```ts
 * const loadKeys = singleFlight(() => fetchJwks());
 * const [a, b] = await Promise.all([loadKeys(), loadKeys()]); // one fetch
 * ```
 */
export function singleFlight<T>(work: () => Promise<T>): () => Promise<T> {
  let pending: Promise<T> | undefined;
  return () => {
    if (!pending) {
      pending = work().finally(() => {
        pending = undefined;
      });
      // Every waiter may have given up (see waitFor); a failed run must not then go unhandled.
      pending.catch(() => {});
    }
    return pending;
  };
}

/**
 * Resolves as `promise` does, or rejects with the signal's reason as soon as it aborts. Lets one caller
 * stop waiting for work it shares with others (a login, a key set) without cancelling that work.
 *
 * @example
 * ```ts
 * const token = await waitFor(sharedLogin, options.signal);
 * ```
 */
export function waitFor<T>(promise: Promise<T>, signal?: AbortSignal): Promise<T> {
  if (!signal) return promise;
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    if (signal.aborted) return onAbort();
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}
