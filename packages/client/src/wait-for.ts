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
