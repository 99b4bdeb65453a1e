/**
 * Says whether a line about `key` may be logged now: at most once per `intervalMs` per key, so that an outage
 * or a flood of refusals writes a line every few seconds rather than one per request.
 *
 * @example
 * ```ts
 * const mayLog = createLogGate(10_000);
 * if (mayLog('busy')) logger.warn('request refused');
 * ```
 */
export function createLogGate(intervalMs: number, now: () => number = Date.now): (key?: string) => boolean {
  const last = new Map<string, number>();
  return (key = '') => {
    const previous = last.get(key);
    if (previous !== undefined && now() - previous < intervalMs) return false;
    last.set(key, now());
    return true;
  };
}
