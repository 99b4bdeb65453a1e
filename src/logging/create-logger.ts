import { pino, type Logger, type LoggerOptions } from 'pino';

/** What createLogger needs to know of the process's standard output. */
export interface LogOutput {
  /** Whether stdout is a terminal (a person reads it) rather than a pipe or file (a log collector does). */
  isTTY: boolean;
  /** Where the lines go; stdout (pino's asynchronous destination) by default. */
  stream?: NodeJS.WritableStream;
}

/**
 * The gateway's logger. Production (and any stdout that is not a terminal) gets one JSON object per line with
 * an ISO 8601 `time` and the level's name (`"level":"info"`), which log collectors and people grepping read
 * without a table of pino's numbers. On a terminal outside production the same lines are printed readably, one
 * line each, by pino-pretty (loaded only then; without it, JSON as in production).
 *
 * @example
 * ```ts
 * const logger = await createLogger({ LOG_LEVEL: 'info', NODE_ENV: 'production' });
 * logger.info('partner gateway listening');
 * // {"level":"info","time":"2026-11-28T09:00:00.000Z","service":"partner-gateway","msg":"partner gateway listening"}
 * ```
 */
export async function createLogger(settings: { LOG_LEVEL: string; NODE_ENV: string }, output: LogOutput = { isTTY: process.stdout.isTTY === true }): Promise<Logger> {
  const options: LoggerOptions = { level: settings.LOG_LEVEL, base: { service: 'partner-gateway' }, timestamp: pino.stdTimeFunctions.isoTime };
  if (settings.NODE_ENV !== 'production' && output.isTTY) {
    const pretty = await import('pino-pretty').then(
      (module) => module.default,
      () => undefined,
    );
    // Synchronous: the ready banner, written straight to stderr, must come after the start's lines (logWritten).
    if (pretty) return pino(options, pretty({ sync: true, colorize: output.stream === undefined, singleLine: true, translateTime: 'SYS:HH:MM:ss.l', ignore: 'pid,hostname,service', ...(output.stream ? { destination: output.stream } : {}) }));
  }
  const json: LoggerOptions = { ...options, formatters: { level: (label) => ({ level: label }) } };
  return output.stream ? pino(json, output.stream) : pino(json);
}
