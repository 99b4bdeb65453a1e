import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { ConfigError, ConfigSchema, loadConfig, trustedProxies } from './config.js';
import { projectFile } from './project-root.js';

describe('configuration', () => {
  it('applies the documented defaults', () => {
    const config = loadConfig({});
    assert.equal(config.PORT, 8080);
    assert.equal(config.HOST, '0.0.0.0');
    assert.equal(config.ADMIN_HOST, '127.0.0.1');
    assert.equal(config.ADMIN_PORT, 8081);
    assert.equal(config.DATA_DIR, './data');
    assert.equal(config.TOKEN_TTL, 900);
    assert.equal(config.PROVIDER_SEGMENT, 'provider');
    assert.equal(config.JWE_MAX_AGE, 120);
    assert.equal(config.JWE_MAX_FUTURE, 30);
    assert.equal(config.DATABASE_URL, undefined);
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
    assert.throws(() => loadConfig({ DATABASE_URL: 'postgres://db/x', MASTER_KEY: 'k'.repeat(64) }), /ADMIN_TOKEN is required/);
    assert.throws(() => loadConfig({ DATABASE_URL: 'postgres://db/x', ADMIN_TOKEN: 'a'.repeat(32) }), /MASTER_KEY is required/);
    assert.throws(() => loadConfig({ ADMIN_TOKEN: 'short' }), /ADMIN_TOKEN/);
    assert.equal(loadConfig({ DATABASE_URL: 'postgres://db/x', ADMIN_TOKEN: 'a'.repeat(32), MASTER_KEY: 'k'.repeat(64) }).ADMIN_TOKEN, 'a'.repeat(32));
  });

  it('splits TRUST_PROXY into addresses', () => {
    assert.deepEqual(trustedProxies(loadConfig({ TRUST_PROXY: ' 10.0.0.1, 192.168.0.0/16 ,' })), ['10.0.0.1', '192.168.0.0/16']);
    assert.deepEqual(trustedProxies(loadConfig({})), []);
  });

  it('documents every setting in the README', () => {
    const readme = readFileSync(projectFile('README.md'), 'utf8');
    for (const key of Object.keys(ConfigSchema.properties)) assert.ok(readme.includes(`| \`${key}\` |`), key);
  });
});
