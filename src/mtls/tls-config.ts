/** The settings the mutual-TLS checks read (a part of the gateway's Config). */
export interface TlsSettings {
  PORT: number;
  TRUST_PROXY: string;
  TLS_PORT?: number | undefined;
  TLS_CERT_FILE?: string | undefined;
  TLS_KEY_FILE?: string | undefined;
  CLIENT_CERT_HEADER?: string | undefined;
  PUBLIC_TLS_URL?: string | undefined;
}

/** Headers a client or the gateway already gives a meaning: naming one of them as CLIENT_CERT_HEADER is a mistake. */
const RESERVED_HEADERS = new Set(['authorization', 'cookie', 'dpop', 'host', 'forwarded', 'x-forwarded-for', 'x-forwarded-proto', 'x-forwarded-host', 'content-type', 'content-length']);

/**
 * What is wrong with the mutual-TLS settings taken together, or undefined (called by `loadConfig`, which
 * turns it into a ConfigError): TLS_PORT needs both TLS_CERT_FILE and TLS_KEY_FILE; the files mean nothing
 * without TLS_PORT; CLIENT_CERT_HEADER needs TRUST_PROXY (no address could send it otherwise) and must not
 * be a header that already means something else.
 *
 * @example
 * ```ts
 * tlsConfigProblem(loadConfig({ TLS_PORT: '8443' })); // throws earlier: 'TLS_PORT needs TLS_CERT_FILE and TLS_KEY_FILE'
 * ```
 */
export function tlsConfigProblem(config: TlsSettings): string | undefined {
  const hasFiles = config.TLS_CERT_FILE !== undefined || config.TLS_KEY_FILE !== undefined;
  if (config.TLS_PORT !== undefined && (config.TLS_CERT_FILE === undefined || config.TLS_KEY_FILE === undefined)) {
    return 'TLS_PORT needs TLS_CERT_FILE and TLS_KEY_FILE (the HTTPS listener\'s PEM certificate and key)';
  }
  if (config.TLS_PORT === undefined && hasFiles) return 'TLS_CERT_FILE and TLS_KEY_FILE are used only with TLS_PORT; set it, or remove them';
  if (config.TLS_PORT !== undefined && config.TLS_PORT === config.PORT && config.PORT !== 0) return 'TLS_PORT must differ from PORT';
  if (config.CLIENT_CERT_HEADER !== undefined) {
    if (config.TRUST_PROXY.trim() === '') return 'CLIENT_CERT_HEADER needs TRUST_PROXY: the header is honoured only from those proxies\' addresses';
    if (RESERVED_HEADERS.has(config.CLIENT_CERT_HEADER.toLowerCase())) return `CLIENT_CERT_HEADER must not be ${config.CLIENT_CERT_HEADER}, a header with another meaning`;
  }
  return undefined;
}

/**
 * The HTTPS address partners use for mutual TLS, without a trailing slash: PUBLIC_TLS_URL, else the loopback
 * address of the HTTPS listener's port; undefined when neither is set (no mTLS endpoint to advertise).
 *
 * @example
 * ```ts
 * publicTlsUrl(loadConfig({ TLS_PORT: '8443', TLS_CERT_FILE: 'c.pem', TLS_KEY_FILE: 'k.pem' })); // 'https://127.0.0.1:8443'
 * ```
 */
export function publicTlsUrl(config: TlsSettings, port: number | undefined = config.TLS_PORT): string | undefined {
  if (config.PUBLIC_TLS_URL !== undefined) return config.PUBLIC_TLS_URL.replace(/\/+$/, '');
  return port === undefined ? undefined : `https://127.0.0.1:${port}`;
}
