export interface WaitForOptions {
  /** How long the condition has to come true, in ms (default 10 s): a bound against hanging, not a speed check. */
  timeout?: number;
  /** The pause between two checks, in ms (default 20). */
  interval?: number;
  /** What was awaited, for the failure's message (a function: read when it fails, e.g. the last output). */
  message?: string | (() => string);
}

/**
 * The one poll-until of the tests: checks `condition` until it returns a truthy value, and returns that value.
 * A test awaits what it needs (a status, a line of output, a file served) instead of sleeping a fixed time and
 * hoping it happened. A check that throws counts as not yet. After `timeout` it fails naming what it waited for
 * and the last error, if any.
 *
 * @example
 * await waitFor(async () => (await fetch(`${base}/readyz`)).ok, { message: 'the gateway to be ready' });
 * const line = await waitFor(() => output().split('\n').find((l) => l.includes('listening')), { timeout: 30_000 });
 */
export async function waitFor<T>(condition: () => T | Promise<T>, options: WaitForOptions = {}): Promise<NonNullable<T>> {
  const { timeout = 10_000, interval = 20 } = options;
  const deadline = Date.now() + timeout;
  let lastError: unknown;
  for (;;) {
    try {
      const value = await condition();
      if (value) return value as NonNullable<T>;
      lastError = undefined;
    } catch (error) {
      lastError = error;
    }
    if (Date.now() >= deadline) {
      const what = typeof options.message === 'function' ? options.message() : (options.message ?? String(condition));
      const why = lastError === undefined ? '' : ` (last check threw: ${lastError instanceof Error ? lastError.message : String(lastError)})`;
      throw new Error(`waited ${timeout} ms for ${what}${why}`);
    }
    await new Promise((resolve) => setTimeout(resolve, Math.min(interval, Math.max(0, deadline - Date.now()))));
  }
}
