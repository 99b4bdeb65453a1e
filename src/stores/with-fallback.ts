/**
 * Wraps a Redis-backed store so that every call falls back to the database-backed one when Redis fails:
 * losing Redis degrades the gateway to the database, never to errors. `onFallback` hears each failure.
 */
export function withFallback<T extends object>(primary: T, fallback: T, onFallback: (error: unknown) => void): T {
  return new Proxy(primary, {
    get(target, property, receiver) {
      const value = Reflect.get(target, property, receiver) as unknown;
      if (typeof value !== 'function') return value;
      return async (...args: unknown[]) => {
        try {
          return await (value as (...a: unknown[]) => Promise<unknown>).apply(target, args);
        } catch (error) {
          onFallback(error);
          return (Reflect.get(fallback, property) as (...a: unknown[]) => Promise<unknown>).apply(fallback, args);
        }
      };
    },
  });
}
