import { Type, type Static } from 'typebox';
import { Value } from 'typebox/value';
import { readMasterKey } from './keys/master-key.js';
import { tlsConfigProblem } from './mtls/tls-config.js';

/**
 * Every setting the gateway reads, with its default. The schema is the documentation: each key has one
 * line saying what it does. `loadConfig` is called once, by `src/main.ts` (or a test), and the result is
 * passed in to whatever needs it; nothing imports configuration as a global.
 *
 * @example
 * ```sh
 * PORT=9000 DATABASE_URL=postgres://gw@db/gateway ADMIN_TOKEN=$(openssl rand -hex 32) npm start
 * ```
 */
export const ConfigSchema = Type.Object({
  NODE_ENV: Type.Union([Type.Literal('development'), Type.Literal('production'), Type.Literal('test')], {
    default: 'development',
    description: 'Runtime mode; `production` never creates the demo partner.',
  }),
  HOST: Type.String({
    default: '127.0.0.1',
    description: 'Address the public API (login and banks) listens on: by default 127.0.0.1 (this machine only: the sandbox prints its demo password), 0.0.0.0 (every interface) when NODE_ENV is production.',
  }),
  PORT: Type.Integer({ default: 8080, minimum: 0, maximum: 65535, description: 'Port of the public API.' }),
  PUBLIC_URL: Type.Optional(
    Type.String({
      pattern: '^https?://[^\\s/?#]+(/[^\\s?#]*)?$',
      description:
        'The address partners use for the gateway (the specification\'s {auth_url} and {api_url}), e.g. https://partners.example.com; shown in the OpenAPI servers and the printed commands. Default http://127.0.0.1:<PORT>; required in production.',
    }),
  ),
  ADMIN_HOST: Type.String({ default: '127.0.0.1', description: 'Address of the admin API; keep it off the public network.' }),
  ADMIN_PORT: Type.Integer({ default: 8081, minimum: 0, maximum: 65535, description: 'Port of the admin API.' }),
  ADMIN_TOKEN: Type.Optional(
    Type.String({
      minLength: 32,
      description: 'Bearer token for the admin API; generated into DATA_DIR/admin-token when unset on the embedded database.',
    }),
  ),
  METRICS_TOKEN: Type.Optional(
    Type.String({
      minLength: 32,
      description: 'Bearer token that may read GET /metrics on the admin listener and nothing else (for Prometheus); the admin token works too.',
    }),
  ),
  SHUTDOWN_TIMEOUT_MS: Type.Integer({
    default: 10_000,
    minimum: 0,
    maximum: 600_000,
    description: 'On SIGTERM, how long in-flight requests may take to finish before their connections are cut; the audit trail is flushed after.',
  }),
  DATA_DIR: Type.String({ default: './data', description: 'Directory for the embedded database and generated secrets.' }),
  DATABASE_URL: Type.Optional(
    Type.String({ minLength: 1, description: 'PostgreSQL connection string; when unset the embedded PGlite in DATA_DIR is used.' }),
  ),
  DATABASE_POOL_SIZE: Type.Integer({ default: 10, minimum: 1, maximum: 200, description: 'Maximum PostgreSQL connections per instance.' }),
  PROVIDER_SEGMENT: Type.String({
    default: 'provider',
    pattern: '^[a-z0-9][a-z0-9_-]{0,62}$',
    description: 'The fixed path segment naming the payment provider in /partner/{segment}/sbp/banks/.',
  }),
  TOKEN_TTL: Type.Integer({ default: 900, minimum: 60, maximum: 86400, description: 'Access token lifetime in seconds (expires_in).' }),
  REFRESH_TTL: Type.Integer({
    default: 604800,
    minimum: 60,
    maximum: 7776000,
    description: 'Refresh token lifetime in seconds (refresh_expires_in); each refresh starts a new one.',
  }),
  MASTER_KEY: Type.Optional(
    Type.String({
      minLength: 43,
      description: 'Key sealing private keys at rest: 32 random bytes as 64 hex characters or canonical base64 (`openssl rand -hex 32`); generated into DATA_DIR/master-key when unset on the embedded database.',
    }),
  ),
  ENC_KEY_GRACE: Type.Integer({
    default: 604800,
    minimum: 0,
    maximum: 7776000,
    description: 'Seconds a retired encryption key keeps decrypting (and stays in the JWKS) after a rotation.',
  }),
  REDIS_URL: Type.Optional(Type.String({ minLength: 1, description: 'Redis for the throttling counters and the JWE replay cache; the database is used when unset.' })),
  REDIS_KEY_PREFIX: Type.String({ default: 'partner-gateway:', maxLength: 100, description: 'Prefix of every Redis key, so that several gateways can share one Redis.' }),
  THROTTLE_MAX_FAILURES: Type.Integer({ default: 10, minimum: 1, maximum: 10000, description: 'Failed authentications per window before a lockout.' }),
  THROTTLE_WINDOW: Type.Integer({ default: 900, minimum: 1, maximum: 86400, description: 'Seconds over which failed authentications are counted.' }),
  THROTTLE_LOCKOUT: Type.Integer({ default: 60, minimum: 1, maximum: 86400, description: 'Seconds of the first lockout; each further lockout doubles it.' }),
  THROTTLE_LOCKOUT_MAX: Type.Integer({ default: 900, minimum: 1, maximum: 86400, description: 'Longest lockout in seconds.' }),
  CACHE_TTL_MS: Type.Integer({
    default: 1000,
    minimum: 0,
    maximum: 60000,
    description: 'How long partners, token revocation state and the bank list are cached; changes made on another instance are seen within it.',
  }),
  PASSWORD_CACHE_TTL: Type.Integer({
    default: 300,
    minimum: 0,
    maximum: 86400,
    description: 'Seconds a successful encrypted-password check is remembered (as a keyed HMAC); 0 hashes every call.',
  }),
  ARGON2_CONCURRENCY: Type.Optional(Type.Integer({ minimum: 1, maximum: 64, description: 'argon2 verifications at once; default: the number of CPU cores.' })),
  AUDIT_QUEUE_MAX: Type.Integer({
    default: 100_000,
    minimum: 1,
    maximum: 10_000_000,
    description: 'Audit entries that may wait in memory while the database does not take them; beyond that, audited calls get 503.',
  }),
  AUDIT_RETENTION_DAYS: Type.Integer({
    default: 400,
    minimum: 1,
    maximum: 36500,
    description: 'Days audit entries are kept; older ones are removed (whole day partitions on PostgreSQL, in batches on PGlite).',
  }),
  ARGON2_QUEUE: Type.Integer({ default: 64, minimum: 0, maximum: 100000, description: 'argon2 verifications allowed to wait; beyond that, 503 with Retry-After.' }),
  TOKEN_ISSUER: Type.Optional(
    Type.String({ minLength: 1, description: 'The `iss` claim of access tokens and the metadata\'s `issuer`; default PUBLIC_URL (the issuer identifier, RFC 8414).' }),
  ),
  TOKEN_AUDIENCE: Type.String({ default: 'partner-api', minLength: 1, description: 'The `aud` claim of issued access tokens.' }),
  JWE_MAX_AGE: Type.Integer({
    default: 120,
    minimum: 10,
    maximum: 3600,
    description: 'Seconds a partnerPassword JWE stays valid after its `iat`.',
  }),
  JWE_MAX_FUTURE: Type.Integer({
    default: 30,
    minimum: 0,
    maximum: 600,
    description: 'Seconds a partnerPassword JWE `iat` may lie in the future (client clock skew).',
  }),
  TRUST_PROXY: Type.String({
    default: '',
    description: 'Comma-separated addresses or CIDRs of proxies whose X-Forwarded-For is believed; empty trusts none.',
  }),
  LOG_LEVEL: Type.Union(
    ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'].map((level) => Type.Literal(level)),
    { default: 'info', description: 'pino log level.' },
  ),
  TLS_PORT: Type.Optional(
    Type.Integer({ minimum: 0, maximum: 65535, description: 'Port of an HTTPS listener beside PORT serving the same public API, asking for (not requiring) a client certificate; needs TLS_CERT_FILE and TLS_KEY_FILE.' }),
  ),
  TLS_CERT_FILE: Type.Optional(Type.String({ minLength: 1, description: 'PEM certificate (and chain) of the HTTPS listener; read at start and again on SIGHUP.' })),
  TLS_KEY_FILE: Type.Optional(Type.String({ minLength: 1, description: 'PEM private key of TLS_CERT_FILE; read at start and again on SIGHUP.' })),
  TLS_CLIENT_CA_FILE: Type.Optional(
    Type.String({ minLength: 1, description: 'PEM CA certificates (one or more) that issue partners\' client certificates for tls_client_auth; read at start and again on SIGHUP.' }),
  ),
  CLIENT_CERT_HEADER: Type.Optional(
    Type.String({
      pattern: '^[A-Za-z0-9-]{1,64}$',
      description: 'Header in which a TLS-terminating proxy in TRUST_PROXY forwards the client certificate as URL-encoded PEM (nginx $ssl_client_escaped_cert), e.g. X-Client-Cert; ignored from other addresses.',
    }),
  ),
  PUBLIC_TLS_URL: Type.Optional(
    Type.String({
      pattern: '^https://[^\\s/?#]+(/[^\\s?#]*)?$',
      description: 'The HTTPS address partners use for mutual TLS (RFC 8705 mtls_endpoint_aliases): the HTTPS listener or the proxy; default https://127.0.0.1:<TLS_PORT>.',
    }),
  ),
});

export type Config = Static<typeof ConfigSchema>;

/** A configuration that failed its schema; the message names every offending key. */
export class ConfigError extends Error {
  override name = 'ConfigError';
}

/**
 * Reads the gateway's settings from an environment-like record, applies defaults, converts numbers and
 * validates everything against `ConfigSchema`. Unknown keys are ignored; empty strings count as unset.
 *
 * @example
 * ```ts
 * const config = loadConfig(process.env);
 * config.PORT; // 8080 unless PORT is set
 * ```
 */
export function loadConfig(env: Record<string, string | undefined>): Config {
  const known = Object.keys(ConfigSchema.properties);
  const input: Record<string, unknown> = {};
  for (const key of known) {
    const value = env[key];
    if (value !== undefined && value !== '') input[key] = value;
  }
  // Outside production the sandbox stays on this machine; a production instance serves its load balancer.
  if (input.HOST === undefined && input.NODE_ENV === 'production') input.HOST = '0.0.0.0';
  const converted = Value.Convert(ConfigSchema, Value.Default(ConfigSchema, input));
  if (!Value.Check(ConfigSchema, converted)) {
    const problems = [...Value.Errors(ConfigSchema, converted)].map((error) => {
      const key = error.instancePath.replace(/^\//, '') || String((error.params as { requiredProperties?: string[] }).requiredProperties ?? '');
      return `${key}: ${error.message}`;
    });
    throw new ConfigError(`Invalid configuration: ${problems.join('; ')}`);
  }
  const config = converted as Config;
  if (config.MASTER_KEY !== undefined) {
    const read = readMasterKey(config.MASTER_KEY);
    if ('problem' in read) throw new ConfigError(`Invalid configuration: ${read.problem}`);
  }
  for (const key of ['ADMIN_TOKEN', 'MASTER_KEY'] as const) {
    if (config.DATABASE_URL !== undefined && config[key] === undefined) {
      throw new ConfigError(`Invalid configuration: ${key} is required when DATABASE_URL is set`);
    }
  }
  if (config.NODE_ENV === 'production' && config.PUBLIC_URL === undefined) {
    throw new ConfigError('Invalid configuration: PUBLIC_URL is required when NODE_ENV is production (the address partners use, e.g. https://partners.example.com)');
  }
  const tlsProblem = tlsConfigProblem(config);
  if (tlsProblem !== undefined) throw new ConfigError(`Invalid configuration: ${tlsProblem}`);
  return config;
}

/**
 * The address partners use for the gateway, without a trailing slash: PUBLIC_URL, else the loopback address
 * of PORT (outside production only).
 *
 * @example
 * ```ts
 * publicUrl(loadConfig({ PORT: '9000' })); // 'http://127.0.0.1:9000'
 * ```
 */
export function publicUrl(config: Config, port: number = config.PORT): string {
  return (config.PUBLIC_URL ?? `http://127.0.0.1:${port}`).replace(/\/+$/, '');
}

/** TRUST_PROXY split into its addresses; an empty list means X-Forwarded-For is ignored. */
export function trustedProxies(config: Config): string[] {
  return config.TRUST_PROXY.split(',')
    .map((entry) => entry.trim())
    .filter((entry) => entry.length > 0);
}

/**
 * The issuer identifier: every access token's `iss` and the metadata document's `issuer` (RFC 8414 section 2
 * wants an https URL partners can fetch the metadata from, so it is PUBLIC_URL unless TOKEN_ISSUER says
 * otherwise, for a gateway taking over an existing issuer name).
 *
 * @example
 * ```ts
 * tokenIssuer(loadConfig({ PUBLIC_URL: 'https://partners.example.com' })); // 'https://partners.example.com'
 * ```
 */
export function tokenIssuer(config: Config): string {
  return config.TOKEN_ISSUER ?? publicUrl(config);
}
