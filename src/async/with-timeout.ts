/**
 * `work`, or a rejection with `message()` once `timeoutMs` has passed, whichever comes first. The work itself
 * is not cancelled: the caller stops waiting for it (a hung database call, a drain at shutdown).
 *
 * @example
 * ```ts
 * await withTimeout(flush(), 2_000, () => `not written within 2 s: ${pending()} left`);
 * ```
 */
export async function withTimeout<T>(work: Promise<T>, timeoutMs: number, message: () => string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([
      work,
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error(message())), Math.max(0, timeoutMs));
      }),
    ]);
  } finally {
    clearTimeout(timer);
  }
}
