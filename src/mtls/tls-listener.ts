import { once } from 'node:events';
import { createServer, type Server } from 'node:https';
import type { AddressInfo, Socket } from 'node:net';
import type { FastifyInstance } from 'fastify';
import type { Logger } from 'pino';
import type { RequestTimeouts } from './request-timeouts.js';
import type { TlsFiles } from './tls-files.js';

export interface TlsListenerOptions {
  /** The public API, the same instance the plain listener serves; made ready here if it is not yet. */
  app: FastifyInstance;
  /** The certificate and key (and client CAs) as loaded by `loadTlsFiles`; must hold a certificate. */
  files: TlsFiles;
  host: string;
  port: number;
  logger: Logger;
  /** The plain listener's bounds on slow clients (`REQUEST_TIMEOUTS`), so that TLS is no way around them. */
  timeouts: RequestTimeouts;
  /** The plain listener's answer to a request Node cannot parse (`clientErrorHandler`): JSON, then close. */
  onClientError: (error: Error & { code?: string }, socket: Socket) => void;
}

export interface TlsListener {
  server: Server;
  /** The port it listens on (the one asked for, or the one the system chose for 0). */
  port: number;
  /**
   * Reads TLS_CERT_FILE, TLS_KEY_FILE and TLS_CLIENT_CA_FILE again (main.ts calls it on SIGHUP): new
   * connections get the new certificate, open ones keep theirs. A missing or bad file is logged and the old
   * ones stay in use. Returns whether the new files were taken.
   */
  reloadTlsFiles(): boolean;
  /** Cuts every connection, the shutdown's last resort. */
  closeAllConnections(): void;
  /** Stops accepting and waits for the open connections to end (idle keep-alive ones are closed at once). */
  close(): Promise<void>;
}

/**
 * Starts the HTTPS listener beside the plain one: the same Fastify app (every route, hook and plugin, through
 * `app.routing`, Fastify's documented entry into its router), over TLS 1.2 or later, asking every client for a
 * certificate without requiring one (`requestCert: true, rejectUnauthorized: false`): a partner without one
 * still uses the other methods, and whether a presented certificate authenticates anyone is decided per
 * request (`verifyClientCertificate`), not by the handshake. Slow clients are cut off as on the plain listener.
 *
 * @example
 * ```ts
 * const tls = await startTlsListener({ app, files, host: config.HOST, port: config.TLS_PORT, logger, timeouts: REQUEST_TIMEOUTS, onClientError: clientErrorHandler });
 * process.on('SIGHUP', () => tls.reloadTlsFiles());
 * ```
 */
export async function startTlsListener({ app, files, host, port, logger, timeouts, onClientError }: TlsListenerOptions): Promise<TlsListener> {
  const secureContext = files.secureContextOptions();
  if (secureContext === undefined) throw new Error('the HTTPS listener needs TLS_CERT_FILE and TLS_KEY_FILE');
  await app.ready();
  const server = createServer(
    {
      ...secureContext,
      requestCert: true,
      rejectUnauthorized: false,
      requestTimeout: timeouts.requestMs,
      headersTimeout: timeouts.headersMs,
      connectionsCheckingInterval: timeouts.checkIntervalMs,
      keepAliveTimeout: app.server.keepAliveTimeout,
    },
    (req, res) => app.routing(req, res),
  );
  server.on('clientError', onClientError);
  server.listen({ host, port });
  await Promise.race([once(server, 'listening'), once(server, 'error').then(([error]) => Promise.reject(error))]);
  return {
    server,
    port: (server.address() as AddressInfo).port,
    reloadTlsFiles() {
      try {
        files.reload();
        server.setSecureContext(files.secureContextOptions()!);
      } catch (error) {
        logger.error({ reason: 'tls_reload_failed', problem: (error as Error).message }, 'TLS files not reloaded; the previous certificate stays in use');
        return false;
      }
      logger.info({ trustedCas: files.trustedCas().length }, 'TLS files reloaded; new connections use them');
      return true;
    },
    closeAllConnections: () => server.closeAllConnections(),
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeIdleConnections();
      }),
  };
}
