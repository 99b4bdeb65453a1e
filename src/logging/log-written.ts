import { symbols, type Logger } from 'pino';

/** What this needs of pino's default destination (sonic-boom): whether a write is in flight, and its drain. */
interface AsyncDestination {
  _writing?: boolean;
  once?(event: 'drain', listener: () => void): unknown;
}

/**
 * Resolves once `logger`'s destination has written every line given to it so far. pino's default destination
 * writes asynchronously (sonic-boom), so a line logged just before something printed straight to stderr (the
 * ready banner) would otherwise reach the terminal after it. sonic-boom has no public "pending" flag (its
 * flush() returns at once when nothing is buffered beyond the write in flight), so this reads its `_writing`
 * and waits for the `drain` it emits once idle; any other destination is taken as written.
 *
 * @example
 * ```ts
 * logger.info('partner gateway listening');
 * await logWritten(logger);
 * process.stderr.write(banner);
 * ```
 */
export function logWritten(logger: Logger): Promise<void> {
  const destination = (logger as unknown as Record<symbol, AsyncDestination | undefined>)[symbols.streamSym];
  if (destination?._writing !== true || typeof destination.once !== 'function') return Promise.resolve();
  return new Promise((resolve) => destination.once!('drain', () => resolve()));
}
