import { setFlagsFromString } from 'node:v8';
import { ConfigError, loadConfig } from './config.js';
import { AUDIT_DRAIN_MS, startServer } from './server.js';
import { exposedSecrets } from './bootstrap/exposed-secrets.js';
import { StartupProblem } from './bootstrap/startup-problem.js';
import { createLogger } from './logging/create-logger.js';
import { logWritten } from './logging/log-written.js';

/** Beyond the bounds server.close() keeps by itself: the last resort if closing the pool hangs. */
const EXIT_MARGIN_MS = 5_000;

/**
 * The process entry point: the only place that reads the environment, listens and exits. Importing this
 * module starts the gateway (`partner-gateway serve` does exactly that).
 *
 * @example
 * ```sh
 * npm start                      # embedded PGlite in ./data
 * NODE_ENV=production DATABASE_URL=postgres://... PUBLIC_URL=https://... ADMIN_TOKEN_FILE=... MASTER_KEY_FILE=... npm start
 * ```
 *
 * Exit codes: 2 the settings are wrong (every problem is printed at once, on stderr); 1 the start failed (a
 * database that cannot be reached is one log line naming DATABASE_URL and the cause).
 */
async function main(env: Record<string, string | undefined>): Promise<void> {
  // Everything the gateway creates (DATA_DIR, the embedded database's files, generated secrets) is for its own
  // user alone: the PGlite files hold every partner's argon2 hash.
  process.umask(0o077);
  let config;
  try {
    config = loadConfig(env);
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`${error.message}\n`);
      process.exit(2);
    }
    throw error;
  }
  // The embedded database is PostgreSQL compiled to WebAssembly, which V8 compiles at once with its baseline
  // compiler (Liftoff) and then again, function by function as they get hot, with its optimizing one (TurboFan),
  // whose code and compile memory stay resident: ~65 MB of the embedded gateway's peak memory, for no CPU per
  // call the bench can tell apart (docs/performance.md, "Embedded memory"). Set before the database is compiled.
  if (config.DATABASE_URL === undefined) setFlagsFromString('--liftoff-only');
  const logger = await createLogger(config);
  for (const { path, mode } of exposedSecrets(config.DATA_DIR)) {
    logger.warn({ path, mode }, `${path} is readable by group or others (mode ${mode}); it holds secrets: chmod go-rwx it`);
  }
  // Loaded only when on: an untraced gateway neither loads nor runs any of OpenTelemetry.
  const tracing = config.OTEL_EXPORTER_OTLP_ENDPOINT ? (await import('./telemetry/tracing.js')).startTracing(config.OTEL_EXPORTER_OTLP_ENDPOINT) : undefined;
  let server;
  try {
    server = await startServer(config, logger, undefined, { instrumentation: tracing?.instrumentation });
  } catch (error) {
    // What a setting names and the operator fixes is one line; anything else is a fault, logged with its stack.
    if (error instanceof StartupProblem) logger.fatal({ setting: error.setting }, error.message);
    else logger.fatal({ err: error }, 'partner gateway failed to start');
    await logWritten(logger);
    process.exit(1);
  }
  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'shutting down');
    setTimeout(() => {
      logger.error('graceful shutdown timed out');
      process.exit(1);
    }, config.SHUTDOWN_TIMEOUT_MS + AUDIT_DRAIN_MS + EXIT_MARGIN_MS).unref();
    server
      .close()
      // The spans of the last requests are sent before the process ends (bounded by the exit timer above).
      .then(() => tracing?.shutdown().catch((error: unknown) => logger.warn({ err: error }, 'traces not all sent')))
      .then(
        () => process.exit(0),
        (error: unknown) => {
          logger.error({ err: error }, 'shutdown failed');
          process.exit(1);
        },
      );
  };
  // Only with mutual TLS configured: otherwise SIGHUP keeps its default meaning (the process ends), as before.
  if (config.TLS_CERT_FILE !== undefined || config.TLS_CLIENT_CA_FILE !== undefined) {
    process.on('SIGHUP', () => {
      logger.info({ signal: 'SIGHUP' }, 'reloading the TLS files');
      server.reloadTlsFiles();
    });
  }
  process.on('SIGTERM', () => stop('SIGTERM'));
  process.on('SIGINT', () => stop('SIGINT'));
}

await main(process.env);
