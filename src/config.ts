import { Type, type Static } from 'typebox';
import { Value } from 'typebox/value';
import { REWARD_TYPE_PATTERN } from '@partner-gateway/contract/patterns';
import { adminTokenProblem } from './bootstrap/admin-token.js';
import { readSecretFiles, SECRET_FILE_MAX_BYTES, SECRET_SETTINGS } from './bootstrap/secret-files.js';
import { connectionUrlProblem, connectionUrlWords, schemaProblems } from './bootstrap/setting-problems.js';
import { readMasterKey } from './keys/master-key.js';
import { tlsConfigProblem } from './mtls/tls-config.js';
import { checkPublicUrl } from './net/public-url.js';

const POSTGRES_PROTOCOLS = ['postgres:', 'postgresql:'];
const REDIS_PROTOCOLS = ['redis:', 'rediss:'];
const MASTER_KEY_VALID = '64 hex characters or 44 base64 characters (32 random bytes), e.g. from `openssl rand -hex 32`';

/** `<NAME>_FILE`: the file a secret setting may be read from instead (src/bootstrap/secret-files.ts). */
function secretFile(name: string) {
  return Type.Optional(
    Type.String({
      minLength: 1,
      valid: 'the path of a readable file',
      description: `A file holding ${name} instead (a mounted secret): read once at start, trailing newlines ignored, at most ${SECRET_FILE_MAX_BYTES / 1024} KiB; setting both is refused.`,
    }),
  );
}

/** One reward type name inside REWARD_TYPES' pattern (the contract's REWARD_TYPE_PATTERN without its anchors). */
const REWARD_TYPE_NAME = REWARD_TYPE_PATTERN.slice(1, -1);

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
      valid: 'an http:// or https:// URL without query or fragment, e.g. https://partners.example.com',
      description:
        'The address partners use for the gateway (the specification\'s {auth_url} and {api_url}), e.g. https://partners.example.com; shown in the OpenAPI servers and the printed commands. Default http://127.0.0.1:<PORT>; required in production.',
    }),
  ),
  ADMIN_HOST: Type.String({ default: '127.0.0.1', description: 'Address of the admin API; keep it off the public network.' }),
  ADMIN_PORT: Type.Integer({ default: 8081, minimum: 0, maximum: 65535, description: 'Port of the admin API.' }),
  ADMIN_TOKEN: Type.Optional(
    Type.String({
      minLength: 32,
      valid: 'at least 32 random characters, e.g. from `openssl rand -hex 32`',
      description: 'Bearer token for the admin API (the bootstrap credential): random, at least 32 characters and about 128 bits (`openssl rand -hex 32`); generated into DATA_DIR/admin-token when unset on the embedded database.',
    }),
  ),
  ADMIN_TOKEN_FILE: secretFile('ADMIN_TOKEN'),
  METRICS_TOKEN: Type.Optional(
    Type.String({
      minLength: 32,
      valid: 'at least 32 random characters, e.g. from `openssl rand -hex 32`',
      description: 'Bearer token that may read GET /metrics on the admin listener and nothing else (for Prometheus); the admin token works too.',
    }),
  ),
  METRICS_TOKEN_FILE: secretFile('METRICS_TOKEN'),
  SHUTDOWN_TIMEOUT_MS: Type.Integer({
    default: 10_000,
    minimum: 0,
    maximum: 600_000,
    description: 'On SIGTERM, how long in-flight requests may take to finish before their connections are cut; the audit trail is flushed after.',
  }),
  DATA_DIR: Type.String({ default: './data', description: 'Directory for the embedded database and generated secrets.' }),
  DATABASE_URL: Type.Optional(
    Type.String({
      minLength: 1,
      valid: `${connectionUrlWords(POSTGRES_PROTOCOLS)}, e.g. postgres://gateway@db.example:5432/gateway`,
      description: 'PostgreSQL connection string (postgres://user:password@host:5432/database); when unset the embedded PGlite in DATA_DIR is used (in production only with ALLOW_EMBEDDED_DATABASE=true).',
    }),
  ),
  DATABASE_URL_FILE: secretFile('DATABASE_URL'),
  ALLOW_EMBEDDED_DATABASE: Type.Boolean({
    default: false,
    description: 'true: a production gateway (NODE_ENV=production) may run on the embedded database in DATA_DIR, and read or generate MASTER_KEY and ADMIN_TOKEN there (one instance, backups with `partner-gateway backup`); refused otherwise.',
  }),
  DATABASE_POOL_SIZE: Type.Integer({ default: 10, minimum: 1, maximum: 200, description: 'Maximum PostgreSQL connections per instance.' }),
  PROVIDER_SEGMENT: Type.String({
    default: 'provider',
    pattern: '^[a-z0-9][a-z0-9_-]{0,62}$',
    valid: 'lower-case letters, digits, _ and -, starting with a letter or digit, at most 63 characters, e.g. provider',
    description: 'The fixed path segment naming the payment provider in /partner/{segment}/sbp/banks/.',
  }),
  REWARD_TYPES: Type.String({
    default: 'sbp',
    pattern: `^ *${REWARD_TYPE_NAME} *(, *${REWARD_TYPE_NAME} *)*$`,
    valid: 'comma-separated names of lower-case letters, digits and _, e.g. sbp,cashback',
    description: 'Comma-separated catalogue of the reward types operators may give a partner (a name: lower-case letters, digits and _); any other is refused with 422. Keep sbp: the banks operation needs it.',
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
      valid: MASTER_KEY_VALID,
      description: 'Key sealing private keys at rest: 32 random bytes as 64 hex characters or canonical base64 (`openssl rand -hex 32`); generated into DATA_DIR/master-key when unset on the embedded database.',
    }),
  ),
  MASTER_KEY_FILE: secretFile('MASTER_KEY'),
  ENC_KEY_GRACE: Type.Integer({
    default: 604800,
    minimum: 0,
    maximum: 7776000,
    description: 'Seconds a retired encryption key keeps decrypting (and stays in the JWKS) after a rotation.',
  }),
  REDIS_URL: Type.Optional(
    Type.String({
      minLength: 1,
      valid: `${connectionUrlWords(REDIS_PROTOCOLS)}, e.g. redis://redis.example:6379`,
      description: 'Redis for the throttling counters and the JWE replay cache; the database is used when unset, and while Redis cannot be reached (at start too: the gateway starts degraded).',
    }),
  ),
  REDIS_URL_FILE: secretFile('REDIS_URL'),
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
  BANK_VERSION_RETENTION_DAYS: Type.Integer({
    default: 400,
    minimum: 1,
    maximum: 36500,
    description: 'Days versions of the bank list are kept for history and restore; older ones are removed (never the current one).',
  }),
  BANKS_IMPORT_MAX_BYTES: Type.Integer({ default: 4194304, minimum: 65536, maximum: 67108864, description: 'Largest bank file an import may send or the registry sync may download, and the most a ZIP may unpack to (default 4 MiB; the whole ED807 directory is under 1 MiB); larger is 413 import_too_large.' }),
  BANKS_SYNC_URL: Type.Optional(
    Type.String({
      description: 'The Bank of Russia BIC directory (ED807, as XML or the ZIP it publishes) the bank list is synced from; no sync when unset. https in production, and never a private address.',
    }),
  ),
  BANKS_SYNC_INTERVAL: Type.Integer({ default: 86400, minimum: 60, maximum: 2592000, description: 'Seconds between scheduled registry syncs (default daily); a failed one is tried again after a tenth of it.' }),
  BANKS_SYNC_MAX_REMOVALS: Type.Integer({ default: 10, minimum: 0, maximum: 100000, description: 'A sync that would remove more banks than this is held for an operator to approve or reject, not applied.' }),
  BANKS_SYNC_MIN_BANKS: Type.Integer({ default: 20, minimum: 0, maximum: 100000, description: 'A sync that would leave fewer banks than this is held for an operator to approve or reject, not applied.' }),
  BANKS_AUTO_ADMIT: Type.Boolean({ default: false, description: 'true: new SBP head offices a registry merge or sync finds are published at once (as before admission), unless an exclusion covers them; false: they wait in the review queue for an operator.' }),
  BANKS_PARTICIPANTS_URL: Type.Optional(
    Type.String({
      description: "The settlement bank's B2C participant list (JSON or CSV: member id, name, Latin name and BIC where given) member ids are synced from; no sync when unset. https in production, and never a private address.",
    }),
  ),
  BANKS_PARTICIPANTS_SYNC_INTERVAL: Type.Integer({ default: 86400, minimum: 60, maximum: 2592000, description: 'Seconds between scheduled participant list syncs (default daily, as settlement banks advise); a failed one is tried again after a tenth of it.' }),
  BANKS_PARTICIPANTS_REQUIRED: Type.Boolean({ default: false, description: 'true: banks the latest participant list does not list are kept out of the list partners receive (from the next version of the list); false: the list only fills member ids.' }),
  WEBHOOK_POLL_MS: Type.Integer({ default: 5000, minimum: 10, maximum: 600000, description: 'How often each instance looks for due webhook deliveries (a new bank list version is sent at once anyway).' }),
  WEBHOOK_TIMEOUT_MS: Type.Integer({ default: 10000, minimum: 100, maximum: 60000, description: 'The longest one webhook delivery may take (connection, request and answer).' }),
  WEBHOOK_RETRY_BASE_MS: Type.Integer({ default: 30000, minimum: 10, maximum: 3600000, description: 'The first retry of a failed webhook delivery comes after this many ms, each next one after twice the last (at most 6 h apart).' }),
  WEBHOOK_RETRY_WINDOW_SECONDS: Type.Integer({ default: 259200, minimum: 1, maximum: 2592000, description: 'A webhook delivery is retried for this long (default 3 days); an endpoint failing for all of it is disabled.' }),
  WEBHOOK_RETENTION_DAYS: Type.Integer({ default: 30, minimum: 4, maximum: 3650, description: 'Webhook events older than this many days, once every delivery of theirs is delivered or given up, are deleted with their delivery log (a replay reaches back this far).' }),
  WEBHOOK_ROTATION_OVERLAP_HOURS: Type.Integer({ default: 24, minimum: 0, maximum: 168, description: "Hours a rotated webhook endpoint's previous signing material still signs beside the new one." }),
  ARGON2_QUEUE: Type.Integer({ default: 64, minimum: 0, maximum: 100000, description: 'argon2 verifications allowed to wait; beyond that, 503 with Retry-After.' }),
  TOKEN_ISSUER: Type.Optional(
    Type.String({ minLength: 1, description: 'The `iss` claim of access tokens and the metadata\'s `issuer`; default PUBLIC_URL (the issuer identifier, RFC 8414).' }),
  ),
  TOKEN_AUDIENCE: Type.String({ default: 'partner-api', minLength: 1, description: 'The `aud` claim of issued access tokens.' }),
  CLIENT_ASSERTION_AUDIENCES: Type.String({
    default: 'issuer',
    pattern: '^issuer(,token_endpoint)?$',
    valid: 'issuer or issuer,token_endpoint',
    description: 'What a private_key_jwt assertion\'s `aud` may be, always one string: `issuer` (the issuer identifier only: FAPI 2.0, RFC 7523bis); `issuer,token_endpoint` also takes the token endpoint URL, for older clients.',
  }),
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
      valid: 'a header name (letters, digits and -, at most 64), e.g. X-Client-Cert',
      description: 'Header in which a TLS-terminating proxy in TRUST_PROXY forwards the client certificate as URL-encoded PEM (nginx $ssl_client_escaped_cert), e.g. X-Client-Cert; ignored from other addresses.',
    }),
  ),
  PUBLIC_TLS_URL: Type.Optional(
    Type.String({
      pattern: '^https://[^\\s/?#]+(/[^\\s?#]*)?$',
      valid: 'an https:// URL without query or fragment, e.g. https://partners-mtls.example.com',
      description: 'The HTTPS address partners use for mutual TLS (RFC 8705 mtls_endpoint_aliases): the HTTPS listener or the proxy; default https://127.0.0.1:<TLS_PORT>.',
    }),
  ),
  DPOP_NONCE: Type.Union([Type.Literal('off'), Type.Literal('required')], {
    default: 'off',
    description: 'required: every DPoP proof must carry a nonce the gateway hands out in DPoP-Nonce (RFC 9449 section 8; use_dpop_nonce otherwise), so a proof made in advance lives at most 2 × DPOP_NONCE_ROTATION seconds; off: no nonce is asked for.',
  }),
  DPOP_NONCE_ROTATION: Type.Integer({
    default: 30,
    minimum: 5,
    maximum: 3600,
    description: 'Seconds between new DPoP nonces (DPOP_NONCE=required); a nonce is accepted until the one after next is handed out, for this to twice this long.',
  }),
  // Operators (issue 25): console sessions, single sign-on, maker-checker.
  ADMIN_PUBLIC_URL: Type.Optional(
    Type.String({
      pattern: '^https?://[^\\s/?#]+$',
      valid: 'an http:// or https:// origin (scheme, host and port, no path), e.g. https://gateway-admin.example.com',
      description: 'The admin console\'s address as operators\' browsers reach it (scheme, host and port), e.g. https://gateway-admin.example.com: the OpenID Connect redirect URI is its /sso/callback. Default http://127.0.0.1:<ADMIN_PORT>; required in production with OIDC_ISSUER.',
    }),
  ),
  SESSION_IDLE_TIMEOUT: Type.Integer({ default: 900, minimum: 60, maximum: 86400, description: 'Seconds a console session survives without a request (PCI DSS 8.2.8 asks for at most 15 minutes).' }),
  SESSION_MAX_AGE: Type.Integer({ default: 43200, minimum: 300, maximum: 604800, description: 'Seconds a console session lasts at most, however active; then the operator signs in again.' }),
  APPROVAL_TTL: Type.Integer({ default: 86400, minimum: 60, maximum: 2592000, description: 'Seconds a proposal (maker-checker) may wait for its approval; after that it expires unapplied.' }),
  OTEL_EXPORTER_OTLP_ENDPOINT: Type.Optional(Type.String({ pattern: '^https?://[^\\s?#]+$', valid: 'an http:// or https:// base URL without query or fragment, e.g. http://otel-collector:4318', description: 'OpenTelemetry collector base URL (OTLP/HTTP, e.g. http://otel-collector:4318): traces go to its /v1/traces; tracing is off when unset.' })),
  OIDC_ISSUER: Type.Optional(Type.String({ pattern: '^https?://[^\\s?#]+$', valid: 'an http:// or https:// URL without query or fragment, e.g. https://sso.example.com/realms/payments', description: 'The OpenID Connect issuer operators sign in to the console with (e.g. https://sso.example.com/realms/payments); single sign-on is off when unset.' })),
  OIDC_CLIENT_ID: Type.Optional(Type.String({ minLength: 1, maxLength: 200, description: 'The console\'s client id at OIDC_ISSUER; required with it.' })),
  OIDC_CLIENT_SECRET: Type.Optional(Type.String({ minLength: 1, description: 'The client\'s secret (client_secret_basic); or OIDC_PRIVATE_KEY_FILE; neither makes it a public client (PKCE only).' })),
  OIDC_CLIENT_SECRET_FILE: secretFile('OIDC_CLIENT_SECRET'),
  OIDC_PRIVATE_KEY_FILE: Type.Optional(Type.String({ minLength: 1, description: 'PEM (PKCS#8) or JWK file of the client\'s private key (private_key_jwt), instead of OIDC_CLIENT_SECRET.' })),
  OIDC_SCOPES: Type.String({ default: 'openid profile email', description: 'Scopes asked for at sign-in (space-separated; openid is always asked for).' }),
  OIDC_ROLE_CLAIM: Type.String({ default: 'groups', minLength: 1, description: 'The ID token or userinfo claim (a string or a list) that OIDC_ROLE_MAP reads, e.g. groups or roles.' }),
  OIDC_ROLE_MAP: Type.String({
    default: '',
    description: 'Claim values and the console role each gives, first match wins: e.g. `gateway-security=security,gateway-operators=operator,gateway-viewers=viewer`. A user with none is refused.',
  }),
  OIDC_NAME_CLAIM: Type.String({ default: 'preferred_username', minLength: 1, description: 'The claim that names a new operator (else email, else the subject).' }),
  OIDC_TOKEN_SIGN_IN_MAX_AGE: Type.Integer({ default: 604800, minimum: 300, maximum: 31536000, description: 'Seconds an operator created by single sign-on may go without signing in through it before its personal tokens are refused (401 sso_sign_in_required) until it signs in again.' }),
});

export type Config = Static<typeof ConfigSchema>;

/**
 * A configuration that cannot be used: `problems` lists every one found (each names its setting and what a valid
 * value looks like), and the message holds them all, one per line, so that one start tells everything to fix.
 */
export class ConfigError extends Error {
  override name = 'ConfigError';
  constructor(readonly problems: string[]) {
    super(`Invalid configuration (${problems.length} ${problems.length === 1 ? 'problem' : 'problems'}):\n${problems.map((problem) => `  - ${problem}`).join('\n')}`);
  }
}

/** Settings whose values are never repeated in a message. */
const SECRETS: ReadonlySet<string> = new Set(SECRET_SETTINGS);

/**
 * Reads the gateway's settings from an environment-like record, applies defaults, converts numbers and
 * validates everything against `ConfigSchema` and the rules between settings. Unknown keys are ignored; empty
 * strings count as unset; each secret setting may come from its `<NAME>_FILE` instead (read here, once). Every
 * problem is collected before anything is thrown, so that a ConfigError lists them all.
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
  const files = readSecretFiles(env);
  Object.assign(input, files.values);
  // Outside production the sandbox stays on this machine; a production instance serves its load balancer.
  if (input.HOST === undefined && input.NODE_ENV === 'production') input.HOST = '0.0.0.0';
  const converted = Value.Convert(ConfigSchema, Value.Default(ConfigSchema, input)) as Record<string, unknown>;
  const schema = schemaProblems(ConfigSchema, converted, SECRETS);
  // A setting that fails its schema is left out (its default, or unset) so that the rules between settings are
  // still checked and reported in the same message; a rule about a setting already reported is not repeated.
  for (const key of schema.keys) delete converted[key];
  const config = Value.Default(ConfigSchema, converted) as Config;
  const unreadFiles = SECRET_SETTINGS.filter((key) => env[`${key}_FILE`] && files.values[key] === undefined);
  const bad = new Set([...schema.keys, ...unreadFiles]);
  const problems = [...files.problems, ...schema.problems, ...ruleProblems(config, bad)];
  if (problems.length > 0) {
    const fromFile = (problem: string) => Object.keys(files.values).find((key) => problem.startsWith(key) && !/^\w/.test(problem.slice(key.length)));
    throw new ConfigError(problems.map((problem) => (fromFile(problem) ? `${problem} (read from ${fromFile(problem)}_FILE)` : problem)));
  }
  return config;
}

/** The rules between settings and those a schema cannot say; a setting in `bad` already has its problem. */
function ruleProblems(config: Config, bad: ReadonlySet<string>): string[] {
  const problems: string[] = [];
  const add = (problem: string | undefined) => {
    if (problem !== undefined) problems.push(problem);
  };
  const production = config.NODE_ENV === 'production';
  if (config.MASTER_KEY !== undefined) {
    const read = readMasterKey(config.MASTER_KEY);
    if ('problem' in read) add(read.problem);
  }
  if (config.ADMIN_TOKEN !== undefined) add(adminTokenProblem(config.ADMIN_TOKEN));
  if (config.DATABASE_URL !== undefined) add(connectionUrlProblem('DATABASE_URL', config.DATABASE_URL, POSTGRES_PROTOCOLS, 'postgres://gateway@db.example:5432/gateway'));
  if (config.REDIS_URL !== undefined) add(connectionUrlProblem('REDIS_URL', config.REDIS_URL, REDIS_PROTOCOLS, 'redis://redis.example:6379'));
  if (production && config.PUBLIC_URL === undefined && !bad.has('PUBLIC_URL')) {
    add('PUBLIC_URL is required when NODE_ENV is production (the address partners use, e.g. https://partners.example.com)');
  }
  const databaseGiven = config.DATABASE_URL !== undefined || bad.has('DATABASE_URL');
  const embeddedRefused = production && !databaseGiven && !config.ALLOW_EMBEDDED_DATABASE;
  if (embeddedRefused) {
    add(
      'DATABASE_URL is required when NODE_ENV is production: a postgres:// or postgresql:// URL (or DATABASE_URL_FILE); ' +
        'ALLOW_EMBEDDED_DATABASE=true runs a single instance on the embedded database in DATA_DIR instead',
    );
  }
  // Without the embedded database's DATA_DIR to keep them, the bootstrap secrets must be given; in production
  // the master key is never generated beside the data it seals unless ALLOW_EMBEDDED_DATABASE says it is meant.
  for (const key of ['ADMIN_TOKEN', 'MASTER_KEY'] as const) {
    if (config[key] !== undefined || bad.has(key)) continue;
    if (databaseGiven) add(`${key} is required when DATABASE_URL is set (or ${key}_FILE)${key === 'MASTER_KEY' ? `: ${MASTER_KEY_VALID}` : ''}`);
    else if (embeddedRefused) {
      add(
        key === 'MASTER_KEY'
          ? `MASTER_KEY is required when NODE_ENV is production (or MASTER_KEY_FILE): ${MASTER_KEY_VALID}; a key kept in DATA_DIR beside the data it seals only with ALLOW_EMBEDDED_DATABASE=true`
          : 'ADMIN_TOKEN is required when NODE_ENV is production (or ADMIN_TOKEN_FILE): at least 32 random characters, e.g. from `openssl rand -hex 32`',
      );
    }
  }
  add(ssoConfigProblem(config));
  if (config.BANKS_SYNC_URL !== undefined) {
    try {
      checkPublicUrl(config.BANKS_SYNC_URL, production);
    } catch (error) {
      add(`BANKS_SYNC_URL ${(error as Error).message}`);
    }
  }
  if (config.BANKS_PARTICIPANTS_URL !== undefined) {
    try {
      checkPublicUrl(config.BANKS_PARTICIPANTS_URL, production);
    } catch (error) {
      add(`BANKS_PARTICIPANTS_URL ${(error as Error).message}`);
    }
  }
  add(tlsConfigProblem(config));
  return problems;
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

/**
 * REWARD_TYPES as a list: each name once, in the order given.
 *
 * @example
 * ```ts
 * rewardTypeCatalogue(loadConfig({ REWARD_TYPES: 'sbp, cashback' })); // ['sbp', 'cashback']
 * ```
 */
export function rewardTypeCatalogue(config: Config): string[] {
  return [...new Set(config.REWARD_TYPES.split(',').map((name) => name.trim()))];
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

/** The single sign-on settings' consistency: what is missing or malformed, or undefined. */
function ssoConfigProblem(config: Config): string | undefined {
  if (config.OIDC_ISSUER === undefined) return undefined;
  if (config.OIDC_CLIENT_ID === undefined) return 'OIDC_CLIENT_ID is required with OIDC_ISSUER';
  if (config.OIDC_CLIENT_SECRET !== undefined && config.OIDC_PRIVATE_KEY_FILE !== undefined) return 'OIDC_CLIENT_SECRET and OIDC_PRIVATE_KEY_FILE exclude each other';
  if ('problem' in readRoleMap(config.OIDC_ROLE_MAP)) return `OIDC_ROLE_MAP: ${(readRoleMap(config.OIDC_ROLE_MAP) as { problem: string }).problem}`;
  if (config.NODE_ENV === 'production' && config.ADMIN_PUBLIC_URL === undefined) return 'ADMIN_PUBLIC_URL is required with OIDC_ISSUER when NODE_ENV is production (the console\'s https address)';
  return undefined;
}

/**
 * OIDC_ROLE_MAP read: each `value=role` pair in order (the first a user's claim matches gives the role).
 *
 * @example
 * ```ts
 * readRoleMap('sec=security,ops=operator'); // { pairs: [['sec', 'security'], ['ops', 'operator']] }
 * ```
 */
export function readRoleMap(text: string): { pairs: Array<[string, 'viewer' | 'operator' | 'security']> } | { problem: string } {
  const pairs: Array<[string, 'viewer' | 'operator' | 'security']> = [];
  for (const item of text.split(',').map((part) => part.trim()).filter((part) => part.length > 0)) {
    const index = item.lastIndexOf('=');
    const value = item.slice(0, index).trim();
    const role = item.slice(index + 1).trim();
    if (index <= 0 || value.length === 0) return { problem: `${item} is not value=role` };
    if (role !== 'viewer' && role !== 'operator' && role !== 'security') return { problem: `${role} is not a role (viewer, operator or security)` };
    pairs.push([value, role]);
  }
  if (pairs.length === 0) return { problem: 'maps no claim value to a role (e.g. gateway-operators=operator)' };
  return { pairs };
}

/**
 * The admin console's address as browsers reach it, without a trailing slash: ADMIN_PUBLIC_URL, else the
 * loopback address of ADMIN_PORT.
 *
 * @example
 * ```ts
 * adminPublicUrl(loadConfig({ ADMIN_PORT: '9001' })); // 'http://127.0.0.1:9001'
 * ```
 */
export function adminPublicUrl(config: Config, port: number = config.ADMIN_PORT): string {
  return (config.ADMIN_PUBLIC_URL ?? `http://127.0.0.1:${port}`).replace(/\/+$/, '');
}
