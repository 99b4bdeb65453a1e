import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { ConfigError, loadConfig, rewardTypeCatalogue, trustedProxies } from './config.js';

const B64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
const GOOD_KEY = '3f9a1c7e5b2d4f6a8c0e1b3d5f7a9c2e4b6d8f0a1c3e5b7d9f2a4c6e8b0d1f35';
const GOOD_ADMIN_TOKEN = '7f3c9a1e5b2d8f4a6c0e9b1d3f5a7c2e4b6d8f0a1c3e5b7d';
const PRODUCTION = { NODE_ENV: 'production', PUBLIC_URL: 'https://partners.example.com', DATABASE_URL: 'postgres://gateway@db.example/gateway', ADMIN_TOKEN: GOOD_ADMIN_TOKEN, MASTER_KEY: GOOD_KEY };

describe('configuration', () => {
  it('applies the documented defaults', () => {
    const config = loadConfig({});
    assert.equal(config.PORT, 8080);
    assert.equal(config.HOST, '127.0.0.1');
    assert.equal(config.ADMIN_HOST, '127.0.0.1');
    assert.equal(config.ADMIN_PORT, 8081);
    assert.equal(config.DATA_DIR, './data');
    assert.equal(config.TOKEN_TTL, 900);
    assert.equal(config.PROVIDER_SEGMENT, 'provider');
    assert.equal(config.JWE_MAX_AGE, 120);
    assert.equal(config.JWE_MAX_FUTURE, 30);
    assert.equal(config.DATABASE_URL, undefined);
  });

  it('listens on 127.0.0.1 outside production and on every interface in production, unless HOST says otherwise', () => {
    assert.equal(loadConfig({ NODE_ENV: 'development' }).HOST, '127.0.0.1');
    assert.equal(loadConfig({ NODE_ENV: 'test' }).HOST, '127.0.0.1');
    assert.equal(loadConfig({ ...PRODUCTION }).HOST, '0.0.0.0');
    assert.equal(loadConfig({ ...PRODUCTION, HOST: '10.0.0.5' }).HOST, '10.0.0.5');
    assert.equal(loadConfig({ HOST: '0.0.0.0' }).HOST, '0.0.0.0');
  });

  it('when REWARD_TYPES is a comma-separated list of reward type names, then the catalogue is each once, in its order; otherwise the start is refused', () => {
    assert.deepEqual(rewardTypeCatalogue(loadConfig({})), ['sbp']);
    assert.deepEqual(rewardTypeCatalogue(loadConfig({ REWARD_TYPES: ' sbp , cashback,gift_card,sbp ' })), ['sbp', 'cashback', 'gift_card']);
    for (const bad of ['sbp,', ',sbp', 'sbp,,gift', 'SBP', 'sbp;gift', '9sbp', 'sbp gift', 'a'.repeat(33)]) {
      assert.throws(() => loadConfig({ REWARD_TYPES: bad }), (error: Error) => error instanceof ConfigError && /REWARD_TYPES/.test(error.message), bad);
    }
  });

  it('converts numbers and treats empty strings as unset', () => {
    const config = loadConfig({ PORT: '9000', TOKEN_TTL: '60', DATABASE_URL: '' });
    assert.equal(config.PORT, 9000);
    assert.equal(config.TOKEN_TTL, 60);
    assert.equal(config.DATABASE_URL, undefined);
  });

  it('refuses invalid values with a message naming every bad key', () => {
    assert.throws(
      () => loadConfig({ PORT: 'eighty', TOKEN_TTL: '5', PROVIDER_SEGMENT: 'Not/Ok', LOG_LEVEL: 'loud' }),
      (error: Error) => error instanceof ConfigError && ['PORT', 'TOKEN_TTL', 'PROVIDER_SEGMENT', 'LOG_LEVEL'].every((key) => error.message.includes(key)),
    );
  });

  it('requires ADMIN_TOKEN and MASTER_KEY with DATABASE_URL, and a long token', () => {
    assert.throws(() => loadConfig({ DATABASE_URL: 'postgres://db/x', MASTER_KEY: GOOD_KEY }), /ADMIN_TOKEN is required/);
    assert.throws(() => loadConfig({ DATABASE_URL: 'postgres://db/x', ADMIN_TOKEN: GOOD_ADMIN_TOKEN }), /MASTER_KEY is required/);
    assert.throws(() => loadConfig({ ADMIN_TOKEN: 'short' }), /ADMIN_TOKEN/);
    assert.equal(loadConfig({ DATABASE_URL: 'postgres://db/x', ADMIN_TOKEN: GOOD_ADMIN_TOKEN, MASTER_KEY: GOOD_KEY }).ADMIN_TOKEN, GOOD_ADMIN_TOKEN);
  });

  it('when BANKS_SYNC_URL is not https in production, or names a non-global address, then the gateway does not start, saying why', () => {
    const production = { ...PRODUCTION, PUBLIC_URL: 'https://partners.example' };
    assert.throws(() => loadConfig({ ...production, BANKS_SYNC_URL: 'http://cbr.example/ed807.zip' }), /BANKS_SYNC_URL must be an https URL/);
    assert.throws(() => loadConfig({ ...production, BANKS_SYNC_URL: 'https://10.1.2.3/ed807.zip' }), /BANKS_SYNC_URL must not point at a private/);
    assert.throws(() => loadConfig({ BANKS_SYNC_URL: 'ftp://cbr.example/ed807.zip' }), /BANKS_SYNC_URL must be an https URL \(plain http only to a loopback address\)/);
    assert.equal(loadConfig({ ...production, BANKS_SYNC_URL: 'https://cbr.example/ed807.zip' }).BANKS_SYNC_URL, 'https://cbr.example/ed807.zip');
    assert.equal(loadConfig({ BANKS_SYNC_URL: 'http://127.0.0.1:9000/ed807.xml' }).BANKS_SYNC_INTERVAL, 86400, 'daily by default; plain http to loopback outside production');
  });

  it('when ADMIN_TOKEN is long but not random, then the start is refused in every environment, naming the setting and how to make one', () => {
    for (const NODE_ENV of ['production', 'development', 'test']) {
      for (const weak of ['a'.repeat(32), 'ab'.repeat(40), 'correct horse battery staple 123', 'password'.repeat(4)]) {
        assert.throws(() => loadConfig({ NODE_ENV, PUBLIC_URL: 'https://partners.example.com', ADMIN_TOKEN: weak }), (error: Error) => {
          assert.match(error.message, /ADMIN_TOKEN is not random .*openssl rand -hex 32/);
          assert.ok(!error.message.includes(weak), 'the value itself is not repeated');
          return true;
        });
      }
    }
    assert.equal(loadConfig({ ADMIN_TOKEN: GOOD_ADMIN_TOKEN }).ADMIN_TOKEN, GOOD_ADMIN_TOKEN);
  });

  it('refuses an ADMIN_TOKEN or METRICS_TOKEN shorter than 32 characters', () => {
    assert.throws(() => loadConfig({ ADMIN_TOKEN: 'a'.repeat(31) }), /ADMIN_TOKEN/);
    assert.throws(() => loadConfig({ METRICS_TOKEN: 'm'.repeat(31) }), /METRICS_TOKEN/);
    assert.equal(loadConfig({ METRICS_TOKEN: 'm'.repeat(32) }).METRICS_TOKEN, 'm'.repeat(32));
  });

  it('reads MASTER_KEY strictly: 64 hex characters or canonical base64 of 32 random bytes, saying how to make one', () => {
    const bytes = Buffer.from(GOOD_KEY, 'hex');
    for (const good of [GOOD_KEY, GOOD_KEY.toUpperCase(), bytes.toString('base64'), bytes.toString('base64url')]) {
      assert.equal(loadConfig({ MASTER_KEY: good }).MASTER_KEY, good);
    }
    const refused = {
      'sixty-four zeros': '0'.repeat(64),
      'one byte repeated (hex)': 'b'.repeat(64),
      'few distinct bytes': Buffer.from(Array.from({ length: 32 }, (_, i) => i % 15)).toString('hex'),
      'base64 with a space inside': `${bytes.toString('base64').slice(0, 20)} ${bytes.toString('base64').slice(20)}`,
      'non-canonical base64 (a padding bit set)': `${bytes.toString('base64').slice(0, 42)}${B64[B64.indexOf(bytes.toString('base64')[42]!) ^ 1]}=`,
      'base64 of 33 bytes': Buffer.concat([bytes, Buffer.from([1])]).toString('base64'),
      'hex of 31 bytes': GOOD_KEY.slice(0, 62),
      'neither': 'k'.repeat(64),
    };
    for (const [label, value] of Object.entries(refused)) {
      assert.throws(
        () => loadConfig({ MASTER_KEY: value }),
        (error: Error) => error instanceof ConfigError && error.message.includes('MASTER_KEY') && error.message.includes('openssl rand -hex 32'),
        label,
      );
    }
  });

  it('when CLIENT_ASSERTION_AUDIENCES is unset, then issuer; when it is issuer,token_endpoint, then that; any other value is refused, naming the key', () => {
    assert.equal(loadConfig({}).CLIENT_ASSERTION_AUDIENCES, 'issuer');
    assert.equal(loadConfig({ CLIENT_ASSERTION_AUDIENCES: 'issuer,token_endpoint' }).CLIENT_ASSERTION_AUDIENCES, 'issuer,token_endpoint');
    for (const value of ['token_endpoint', 'issuer,token', 'any']) assert.throws(() => loadConfig({ CLIENT_ASSERTION_AUDIENCES: value }), /CLIENT_ASSERTION_AUDIENCES/, value);
  });

  it('splits TRUST_PROXY into addresses', () => {
    assert.deepEqual(trustedProxies(loadConfig({ TRUST_PROXY: ' 10.0.0.1, 192.168.0.0/16 ,' })), ['10.0.0.1', '192.168.0.0/16']);
    assert.deepEqual(trustedProxies(loadConfig({})), []);
  });

  it('when OTEL_EXPORTER_OTLP_ENDPOINT is unset, then tracing is off; an http(s) base URL is taken, anything else refused naming the key', () => {
    assert.equal(loadConfig({}).OTEL_EXPORTER_OTLP_ENDPOINT, undefined);
    assert.equal(loadConfig({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://otel-collector:4318' }).OTEL_EXPORTER_OTLP_ENDPOINT, 'http://otel-collector:4318');
    for (const value of ['otel-collector:4318', 'http://collector:4318/?token=x', 'grpc://collector:4317']) {
      assert.throws(() => loadConfig({ OTEL_EXPORTER_OTLP_ENDPOINT: value }), (error: unknown) => error instanceof ConfigError && error.message.includes('OTEL_EXPORTER_OTLP_ENDPOINT'), value);
    }
  });

  it('when several settings are wrong or missing, then one ConfigError lists every one, each naming its setting and what a valid value looks like', () => {
    assert.throws(() => loadConfig({ NODE_ENV: 'production' }), (error: Error) => {
      assert.ok(error instanceof ConfigError);
      assert.equal(error.problems.length, 4, error.message);
      for (const [index, key] of ['PUBLIC_URL', 'DATABASE_URL', 'ADMIN_TOKEN', 'MASTER_KEY'].entries()) assert.ok(error.problems[index]!.startsWith(`${key} is required`), error.problems[index]);
      assert.match(error.message, /^Invalid configuration \(4 problems\):\n  - PUBLIC_URL/);
      assert.match(error.message, /MASTER_KEY is required .*64 hex characters or 44 base64 characters \(32 random bytes\)/);
      return true;
    });
    assert.throws(() => loadConfig({ PORT: 'eighty', LOG_LEVEL: 'loud', MASTER_KEY: 'short-secret', DATABASE_URL: 'not-a-url', REDIS_URL: 'localhost:6379', ALLOW_EMBEDDED_DATABASE: 'yes' }), (error: Error) => {
      assert.ok(error instanceof ConfigError);
      assert.deepEqual(error.problems, [
        'PORT: an integer from 0 to 65535 (not "eighty")',
        'ALLOW_EMBEDDED_DATABASE: true or false (not "yes")',
        'MASTER_KEY: 64 hex characters or 44 base64 characters (32 random bytes), e.g. from `openssl rand -hex 32`',
        'LOG_LEVEL: one of fatal, error, warn, info, debug, trace, silent (not "loud")',
        'DATABASE_URL: a postgres:// or postgresql:// URL, e.g. postgres://gateway@db.example:5432/gateway',
        'REDIS_URL: a redis:// or rediss:// URL, e.g. redis://redis.example:6379',
        'ADMIN_TOKEN is required when DATABASE_URL is set (or ADMIN_TOKEN_FILE)',
      ]);
      assert.ok(!error.message.includes('short-secret') && !error.message.includes('not-a-url') && !error.message.includes('localhost:6379'), 'secret settings are never repeated');
      return true;
    });
  });

  it('when NODE_ENV is production without DATABASE_URL, then the start is refused unless ALLOW_EMBEDDED_DATABASE=true says the embedded database (and its DATA_DIR secrets) are meant', () => {
    const embedded = { NODE_ENV: 'production', PUBLIC_URL: 'https://partners.example.com' };
    assert.throws(() => loadConfig(embedded), /DATABASE_URL is required when NODE_ENV is production.*ALLOW_EMBEDDED_DATABASE=true/);
    assert.throws(() => loadConfig({ ...embedded, ADMIN_TOKEN: GOOD_ADMIN_TOKEN }), /MASTER_KEY is required when NODE_ENV is production.*beside the data it seals only with ALLOW_EMBEDDED_DATABASE=true/);
    const allowed = loadConfig({ ...embedded, ALLOW_EMBEDDED_DATABASE: 'true' });
    assert.equal(allowed.ALLOW_EMBEDDED_DATABASE, true);
    assert.equal(allowed.MASTER_KEY, undefined, 'read from (or generated into) DATA_DIR, as meant');
    assert.equal(loadConfig({}).ALLOW_EMBEDDED_DATABASE, false);
    assert.equal(loadConfig({}).DATABASE_URL, undefined, 'outside production the embedded database needs no word');
  });

  it('when a secret setting comes from its _FILE, then it is read once with trailing newlines removed, and a problem with it is said to come from the file', (t) => {
    const directory = mkdtempSync(join(tmpdir(), 'config-files-'));
    t.after(() => rmSync(directory, { recursive: true, force: true }));
    const file = (name: string, content: string) => {
      writeFileSync(join(directory, name), content);
      return join(directory, name);
    };
    const config = loadConfig({ ...PRODUCTION, ADMIN_TOKEN: '', MASTER_KEY: '', DATABASE_URL: '', ADMIN_TOKEN_FILE: file('admin', `${GOOD_ADMIN_TOKEN}\n`), MASTER_KEY_FILE: file('master', `${GOOD_KEY}\r\n`), DATABASE_URL_FILE: file('db', 'postgres://gw:pw@db/gw\n') });
    assert.equal(config.ADMIN_TOKEN, GOOD_ADMIN_TOKEN);
    assert.equal(config.MASTER_KEY, GOOD_KEY);
    assert.equal(config.DATABASE_URL, 'postgres://gw:pw@db/gw');
    assert.throws(() => loadConfig({ MASTER_KEY_FILE: file('weak', '0'.repeat(64)) }), /MASTER_KEY is not random .* \(read from MASTER_KEY_FILE\)$/);
  });
});
