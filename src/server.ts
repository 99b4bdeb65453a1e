import type { FastifyInstance } from 'fastify';
import type { Logger } from 'pino';
import { logGatewayEvents } from './logging/gateway-event-log.js';
import { logWritten } from './logging/log-written.js';
import { loadDefaultBanks } from './banks/default-banks.js';
import { resolveAdminToken } from './bootstrap/admin-token.js';
import { databaseTarget, redisTarget } from './bootstrap/backends.js';
import { DATA_DIR_LOCK_WAIT_MS, lockDataDir } from './bootstrap/data-dir-lock.js';
import { openReachableDatabase } from './bootstrap/open-reachable-database.js';
import { createDemoPartner } from './bootstrap/demo-partner.js';
import { reportUnknownRewardTypes } from './bootstrap/reward-type-report.js';
import { startupBanner } from './bootstrap/startup-banner.js';
import { scheduleBankSync, scheduleParticipantsSync } from './bootstrap/schedule-bank-sync.js';
import { GATEWAY_VERSION } from './version.js';
import { publicUrl as publicUrlOf, type Config } from './config.js';
import { createGateway, type Gateway } from './gateway.js';
import { resolveMasterKey } from './keys/master-key.js';
import { buildAdminApp } from './http/admin-app.js';
import { buildApp, REQUEST_TIMEOUTS } from './http/app.js';
import { clientErrorHandler } from './http/plugins/error-handler.js';
import { loadTlsFiles, type TlsFiles } from './mtls/tls-files.js';
import { startTlsListener, type TlsListener } from './mtls/tls-listener.js';
import type { Tracing } from './telemetry/tracing.js';

export interface RunningServer {
  publicUrl: string;
  adminUrl: string;
  /** The HTTPS listener's address when TLS_PORT is set. */
  tlsUrl?: string;
  /**
   * The mutual-TLS files (TLS_CERT_FILE, TLS_KEY_FILE, TLS_CLIENT_CA_FILE) when any is set: `trustedCas()` is
   * what tls_client_auth checks certificates against, current after each reload.
   */
  tlsFiles?: TlsFiles;
  /** Reads the mutual-TLS files again (SIGHUP); a bad file is logged and the previous ones stay in use. */
  reloadTlsFiles(): void;
  /**
   * Stops accepting (a request still arriving gets 503 shutting_down), lets in-flight requests finish for up
   * to SHUTDOWN_TIMEOUT_MS, flushes the audit trail (up to AUDIT_DRAIN_MS), then closes the database.
   */
  close(): Promise<void>;
}

/** How long a shutdown keeps trying to write queued audit entries (only a database outage makes it wait). */
export const AUDIT_DRAIN_MS = 5_000;

/** How often rows nobody can use any more (JWE jtis, token families, throttle counters) are deleted. */
const PURGE_INTERVAL_MS = 60_000;

/**
 * Starts the gateway: opens and migrates the database, loads (or creates) the keys, seeds an empty bank
 * registry, creates the demo partner on a first non-production start, and listens on the public and admin
 * addresses. `print` receives the human-readable first-start messages.
 */
export async function startServer(
  config: Config,
  logger: Logger,
  print: (text: string) => void = (text) => process.stderr.write(`${text}\n`),
  { instrumentation }: { instrumentation?: Tracing['instrumentation'] | undefined } = {},
): Promise<RunningServer> {
  // Read before anything else is opened: a missing or bad certificate file stops the start at once.
  const tlsFiles =
    config.TLS_CERT_FILE !== undefined || config.TLS_CLIENT_CA_FILE !== undefined
      ? loadTlsFiles({ certFile: config.TLS_CERT_FILE, keyFile: config.TLS_KEY_FILE, clientCaFile: config.TLS_CLIENT_CA_FILE })
      : undefined;
  const unlock = config.DATABASE_URL
    ? () => {}
    : await lockDataDir(config.DATA_DIR, { onWait: (pid) => logger.warn({ pid, waitMs: DATA_DIR_LOCK_WAIT_MS }, 'DATA_DIR is held by another process: waiting for it to exit') });
  const database = databaseTarget(config);
  let handle;
  try {
    handle = await openReachableDatabase(config, database);
  } catch (error) {
    unlock();
    throw error;
  }
  const apps: FastifyInstance[] = [];
  let gateway: Gateway | undefined;
  let tls: TlsListener | undefined;
  /** The demo partner created on this start, until its password has been printed. */
  let unshownDemo: { login: string; password: string } | undefined;
  try {
    await handle.migrate();
    // Asked once, so that the start log says what the gateway runs on; an unreachable Redis is no reason not to
    // serve (every Redis call falls back to the database, as when Redis goes away later).
    // Loaded only with REDIS_URL: a gateway without Redis never loads ioredis.
    const reachable = config.REDIS_URL === undefined ? undefined : (await import('./stores/redis-reachable.js')).redisReachable;
    const redis = config.REDIS_URL === undefined || !reachable ? undefined : { at: redisTarget(config.REDIS_URL), ...(await reachable(config.REDIS_URL)) };
    if (redis && !redis.up) {
      logger.warn(
        { setting: 'REDIS_URL', reason: 'redis_unreachable', redis: redis.at },
        `REDIS_URL: cannot reach Redis at ${redis.at} (${redis.cause}); starting degraded: throttling and the replay cache use the database until Redis answers`,
      );
    }
    gateway = await createGateway(config, handle, {
      masterKey: resolveMasterKey(config.MASTER_KEY, config.DATA_DIR),
      events: logGatewayEvents(logger, () => gateway?.runtime.auditTrail.pending() ?? 0),
      ...(tlsFiles ? { trustedCas: () => tlsFiles.trustedCas() } : {}),
    });
    if (await gateway.runtime.seedBanks(loadDefaultBanks())) logger.info('bank registry was empty: filled with the default SBP bank list');
    await reportUnknownRewardTypes(gateway.admin.partners, logger);
    const adminToken = resolveAdminToken(config.ADMIN_TOKEN, config.DATA_DIR);

    const app = await buildApp({ gateway, logger, instrumentation });
    apps.push(app);
    const admin = await buildAdminApp({ gateway, logger, adminToken: adminToken.token, metricsToken: config.METRICS_TOKEN, instrumentation });
    apps.push(admin);
    // Created before listening, so that its password is in the one message printed once the gateway is
    // ready; if the start fails before that message, it is removed again (below), so that the next first
    // start creates one and shows its password.
    const demo = await createDemoPartner(gateway);
    unshownDemo = demo;
    await app.listen({ host: config.HOST, port: config.PORT });
    await admin.listen({ host: config.ADMIN_HOST, port: config.ADMIN_PORT });
    if (config.TLS_PORT !== undefined && tlsFiles) {
      tls = await startTlsListener({
        app,
        files: tlsFiles,
        host: config.HOST,
        port: config.TLS_PORT,
        logger,
        timeouts: REQUEST_TIMEOUTS,
        // Bound to the app: a method Node's parser does not know is answered 405 with the path's Allow, as on the plain listener.
        onClientError: clientErrorHandler.bind(app),
      });
    }
    const publicUrl = urlOf(app, config.HOST);
    const adminUrl = urlOf(admin, config.ADMIN_HOST);
    const tlsUrl = tls ? urlOf({ port: tls.port, scheme: 'https' }, config.HOST) : undefined;
    // The printed commands use the address partners use: PUBLIC_URL, else this listener's loopback address; the
    // log names the same one, and the backends in use (without credentials).
    const partnersUrl = publicUrlOf(config, portOf(app));
    logger.info(
      {
        version: GATEWAY_VERSION,
        publicUrl: partnersUrl,
        listening: publicUrl,
        adminUrl,
        ...(tlsUrl ? { tlsUrl } : {}),
        database,
        redis: redis ? { at: redis.at, state: redis.up ? 'up' : 'unreachable (degraded: the database stands in)' } : 'none (the database holds throttling and the replay cache)',
      },
      'partner gateway listening',
    );
    const banner = startupBanner({ version: GATEWAY_VERSION, publicUrl: partnersUrl, adminUrl, providerSegment: config.PROVIDER_SEGMENT, adminToken, demo });
    if (banner) {
      // The log's lines still being written go out first: the banner is the last thing a start prints.
      await logWritten(logger);
      print(banner);
    }
    unshownDemo = undefined;

    const live = gateway;
    const purge = setInterval(() => {
      live.runtime.purgeExpired().catch((error: unknown) => logger.warn({ err: error }, 'purge of expired rows failed'));
    }, PURGE_INTERVAL_MS);
    purge.unref();
    const bankSync = scheduleBankSync(live, config, logger);
    const participantsSync = scheduleParticipantsSync(live, config, logger);

    const liveTls = tls;
    return {
      publicUrl,
      adminUrl,
      ...(tlsUrl ? { tlsUrl } : {}),
      ...(tlsFiles ? { tlsFiles } : {}),
      reloadTlsFiles() {
        if (liveTls) liveTls.reloadTlsFiles();
        else if (tlsFiles) reloadFiles(tlsFiles, logger);
      },
      async close() {
        clearInterval(purge);
        await bankSync.stop();
        await participantsSync.stop();
        // In-flight requests finish (and record their audit entries) before the trail is drained; a request
        // still running after SHUTDOWN_TIMEOUT_MS (a client trickling its body, a stuck call) loses its
        // connection so that the audit trail is flushed and the pool closed within a known time.
        const cut = setTimeout(() => {
          logger.warn({ afterMs: config.SHUTDOWN_TIMEOUT_MS }, 'shutdown: cutting connections still open');
          for (const instance of apps) instance.server.closeAllConnections();
          liveTls?.closeAllConnections();
        }, config.SHUTDOWN_TIMEOUT_MS);
        try {
          // The HTTPS listener serves the public app: it stops with it (the app's drain answers its late requests).
          await Promise.all([...apps.map((instance) => instance.close()), liveTls?.close()]);
        } finally {
          clearTimeout(cut);
        }
        try {
          await live.runtime.close(AUDIT_DRAIN_MS);
        } finally {
          await handle.close().finally(unlock);
        }
      },
    };
  } catch (error) {
    await Promise.allSettled([...apps.map((instance) => instance.close()), tls?.close()]);
    if (unshownDemo) await gateway?.admin.partners.remove(unshownDemo.login).catch(() => {});
    await gateway?.runtime.close().catch(() => {});
    await handle.close().catch(() => {});
    unlock();
    throw error;
  }
}

function portOf(app: FastifyInstance): number {
  const address = app.server.address();
  return typeof address === 'object' && address ? address.port : 0;
}

function urlOf(listener: FastifyInstance | { port: number; scheme: 'https' }, host: string): string {
  const [scheme, port] = 'scheme' in listener ? [listener.scheme, listener.port] : ['http', portOf(listener)];
  const shown = host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host.includes(':') ? `[${host}]` : host;
  return `${scheme}://${shown}:${port}`;
}

/** Behind a proxy (no HTTPS listener), SIGHUP still reloads TLS_CLIENT_CA_FILE. */
function reloadFiles(files: TlsFiles, logger: Logger): void {
  try {
    files.reload();
    logger.info({ trustedCas: files.trustedCas().length }, 'TLS files reloaded');
  } catch (error) {
    logger.error({ reason: 'tls_reload_failed', problem: (error as Error).message }, 'TLS files not reloaded; the previous ones stay in use');
  }
}
