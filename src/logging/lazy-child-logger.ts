import type { FastifyBaseLogger } from 'fastify';
import type { Bindings, ChildLoggerOptions, Logger } from 'pino';

type Level = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace';

/**
 * Fastify's `childLoggerFactory`: the request's logger (`request.log`, bound to its `reqId`) made only when the
 * request writes a line at an enabled level, or asks for a child of its own. Fastify makes a pino child per
 * request, bindings serialized and all, though a served request usually logs nothing (its one `request` line is
 * info, off in production at LOG_LEVEL=warn): about a microsecond and an object per call on the bearer path
 * (issue 35). What a line says is unchanged: it is written by the same child, with the same bindings. A request
 * given options (a route's log level or serializers) gets its child at once, as before.
 *
 * @example
 * ```ts
 * Fastify({ loggerInstance: logger, childLoggerFactory: lazyChildLogger });
 * ```
 */
export function lazyChildLogger(this: unknown, logger: FastifyBaseLogger, bindings: Bindings, options: ChildLoggerOptions): FastifyBaseLogger {
  if (Object.keys(options).length > 0) return logger.child(bindings, options);
  return new LazyChild(logger as unknown as Logger, bindings) as unknown as FastifyBaseLogger;
}

class LazyChild {
  #child: Logger | undefined;
  constructor(
    readonly parent: Logger,
    readonly bound: Bindings,
  ) {}

  /** The real child, made on first need. */
  get logger(): Logger {
    this.#child ??= this.parent.child(this.bound);
    return this.#child;
  }

  get level(): string {
    return (this.#child ?? this.parent).level;
  }

  set level(level: string) {
    this.logger.level = level;
  }

  isLevelEnabled(level: string): boolean {
    return (this.#child ?? this.parent).isLevelEnabled(level);
  }

  bindings(): Bindings {
    return this.logger.bindings();
  }

  child(bindings: Bindings, options?: ChildLoggerOptions): Logger {
    return this.logger.child(bindings, options);
  }

  fatal(...args: unknown[]): void {
    this.write('fatal', args);
  }
  error(...args: unknown[]): void {
    this.write('error', args);
  }
  warn(...args: unknown[]): void {
    this.write('warn', args);
  }
  info(...args: unknown[]): void {
    this.write('info', args);
  }
  debug(...args: unknown[]): void {
    this.write('debug', args);
  }
  trace(...args: unknown[]): void {
    this.write('trace', args);
  }
  silent(): void {}

  /** A line below the level is dropped without making the child, as pino drops it. */
  private write(level: Level, args: unknown[]): void {
    if (!this.isLevelEnabled(level)) return;
    (this.logger[level] as (...parts: unknown[]) => void)(...args);
  }
}
