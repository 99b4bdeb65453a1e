/**
 * The deployment files (docker-compose.yml, deploy/nginx.conf, Dockerfile, .dockerignore) cannot be run
 * here, so they are read: a gateway service may only be given real settings (keys of ConfigSchema) and must
 * be given the required ones, secrets come from interpolation, the load balancer really balances over the
 * gateways and retries, and the image runs as a non-root user with a health check and the seeds.
 */
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { parse } from 'yaml';
import { ConfigSchema, loadConfig } from '../../src/config.js';
import { projectFile } from '../../src/project-root.js';

type Service = Record<string, unknown> & {
  build?: unknown;
  image?: string;
  environment?: Record<string, unknown> | string[];
  env_file?: unknown;
  ports?: unknown[];
  depends_on?: Record<string, { condition?: string }> | string[];
  healthcheck?: { test?: unknown; disable?: boolean };
  networks?: Record<string, { ipv4_address?: string } | null> | string[];
  volumes?: unknown[];
};

const read = (path: string) => readFileSync(projectFile(path), 'utf8');
// Merge keys (`<<: *gateway`) are resolved as Compose resolves them.
const compose = parse(read('docker-compose.yml'), { merge: true }) as { services: Record<string, Service> };
const services = Object.entries(compose.services);
const isGateway = ([, service]: [string, Service]) => service.build !== undefined || /(^|\/)partner-gateway(:|$)/.test(service.image ?? '');
const gateways = services.filter(isGateway);
const settings = new Set(Object.keys(ConfigSchema.properties));

function environmentOf(service: Service): Record<string, string> {
  const environment = service.environment ?? {};
  if (Array.isArray(environment)) {
    return Object.fromEntries(environment.map((entry) => {
      const equals = String(entry).indexOf('=');
      return equals === -1 ? [String(entry), ''] : [String(entry).slice(0, equals), String(entry).slice(equals + 1)];
    }));
  }
  return Object.fromEntries(Object.entries(environment).map(([key, value]) => [key, value === null ? '' : String(value)]));
}

/** Compose interpolation with stand-in secrets: `${X:?msg}` → a valid value for X, `${X:-d}` → d. */
function interpolate(value: string): string {
  const standIns: Record<string, string> = { ADMIN_TOKEN: '9e4b1f7a3c5d2e8f0a6b4c1d9e7f3a5b2c8d0e6f4a1b7c3d5e9f2a8b0c4d6e1f', MASTER_KEY: '3f9a1c7e5b2d4f6a8c0e1b3d5f7a9c2e4b6d8f0a1c3e5b7d9f2a4c6e8b0d1f35', POSTGRES_PASSWORD: 'c'.repeat(48) };
  return value.replace(/\$\{([A-Z0-9_]+)(?::?([?-])([^}]*))?\}/g, (_, name: string, kind?: string, rest?: string) =>
    kind === '-' ? (rest ?? '') : (standIns[name] ?? 'x'.repeat(16)),
  );
}

const requiredInterpolation = /^\$\{[A-Z0-9_]+:\?[^}]*\}$/;

function publishedPorts(service: Service): Array<{ hostIp: string | undefined; containerPort: string }> {
  return (service.ports ?? []).map((port) => {
    if (typeof port === 'object' && port !== null) {
      const long = port as { host_ip?: string; target?: number | string };
      return { hostIp: long.host_ip, containerPort: String(long.target) };
    }
    // Short syntax: [[host_ip:]host_port:]container_port[/protocol], host parts possibly interpolated.
    const parts = interpolate(String(port)).replace(/\/(tcp|udp)$/, '').split(':');
    return { hostIp: parts.length === 3 ? parts[0] : undefined, containerPort: parts[parts.length - 1]! };
  });
}

function edgeAddress(service: Service): string | undefined {
  const networks = service.networks;
  if (!networks || Array.isArray(networks)) return undefined;
  return Object.values(networks).find((network) => network?.ipv4_address)?.ipv4_address;
}

describe('docker-compose.yml', () => {
  it('runs at least two gateway instances', () => {
    assert.ok(gateways.length >= 2, `gateway services: ${gateways.map(([name]) => name).join(', ') || 'none'}`);
  });

  for (const [name, service] of gateways) {
    describe(`gateway service ${name}`, () => {
      const environment = environmentOf(service);

      it('sets only real settings (keys of ConfigSchema in src/config.ts)', () => {
        const unknown = Object.keys(environment).filter((key) => !settings.has(key));
        assert.deepEqual(unknown, [], `${name} sets ${unknown.join(', ')}, which the gateway does not read (src/config.ts)`);
      });

      it('takes no env_file, whose variables could not be checked against the settings', () => {
        assert.equal(service.env_file, undefined);
      });

      it('sets DATABASE_URL, ADMIN_TOKEN and MASTER_KEY', () => {
        for (const key of ['DATABASE_URL', 'ADMIN_TOKEN', 'MASTER_KEY']) assert.ok(environment[key], `${name} misses ${key}`);
      });

      it('takes its secrets from required interpolation, never literally', () => {
        assert.match(environment.ADMIN_TOKEN ?? '', requiredInterpolation);
        assert.match(environment.MASTER_KEY ?? '', requiredInterpolation);
        const password = /^postgres(?:ql)?:\/\/[^:@/]+:([^@]*)@/.exec(environment.DATABASE_URL ?? '')?.[1];
        if (password !== undefined) assert.match(password, requiredInterpolation, 'the database password in DATABASE_URL must be interpolated');
      });

      it('has settings the gateway accepts', () => {
        const config = loadConfig(Object.fromEntries(Object.entries(environment).map(([key, value]) => [key, interpolate(value)])));
        assert.equal(config.NODE_ENV, 'production');
        assert.equal(environment.HOST, '0.0.0.0', 'HOST is set explicitly: the load balancer reaches the public API from outside the container');
        assert.ok(config.REDIS_URL, 'REDIS_URL: the instances share lockout counters and the JWE replay cache');
        assert.ok(config.TRUST_PROXY, 'TRUST_PROXY: the load balancer forwards the client address');
      });

      it('publishes no public port, and an admin port only on 127.0.0.1', () => {
        const adminPort = String(loadConfig({ ADMIN_PORT: interpolate(environment.ADMIN_PORT ?? '') }).ADMIN_PORT);
        for (const port of publishedPorts(service)) {
          assert.equal(port.containerPort, adminPort, `${name} publishes port ${port.containerPort}; only the load balancer publishes the API`);
          assert.equal(port.hostIp, '127.0.0.1', `${name} publishes its admin port beyond 127.0.0.1`);
          assert.equal(environment.ADMIN_HOST, '0.0.0.0', `${name} publishes its admin port, which listens inside the container only`);
        }
      });

      it('has a health check and waits for a healthy PostgreSQL and Redis', () => {
        assert.ok(service.healthcheck?.test && !service.healthcheck.disable, `${name} has no health check`);
        const dependsOn = service.depends_on;
        assert.ok(dependsOn && !Array.isArray(dependsOn), `${name}: depends_on with conditions`);
        assert.equal(dependsOn.postgres?.condition, 'service_healthy');
        assert.equal(dependsOn.redis?.condition, 'service_healthy');
      });
    });
  }

  it('publishes the admin port of exactly one gateway', () => {
    assert.equal(gateways.filter(([, service]) => publishedPorts(service).length > 0).length, 1);
  });

  it('runs PostgreSQL 16 and Redis 7, healthy-checked and unpublished', () => {
    assert.match(compose.services.postgres?.image ?? '', /^postgres:16([.-]|$)/);
    assert.match(compose.services.redis?.image ?? '', /^redis:7([.-]|$)/);
    for (const name of ['postgres', 'redis']) {
      assert.ok(compose.services[name]!.healthcheck?.test, `${name} has no health check`);
      assert.equal(compose.services[name]!.ports, undefined, `${name} publishes a port`);
    }
  });

  it('writes no literal secret into any service', () => {
    for (const [name, service] of services) {
      for (const [key, value] of Object.entries(environmentOf(service))) {
        if (/PASSWORD|TOKEN|SECRET|_KEY$/.test(key)) assert.match(value, requiredInterpolation, `${name}: ${key} is written literally`);
      }
    }
  });

  describe('the load balancer', () => {
    const entry = services.find(([, service]) => /^(nginx|haproxy)(:|$)/.test(service.image ?? ''));
    const [lbName, lb] = entry ?? ['', {} as Service];
    const mount = (lb.volumes ?? []).map(String).find((volume) => volume.startsWith('./deploy/') && volume.includes('nginx.conf'));
    // Includes resolved as nginx resolves them: each /etc/nginx/<file> must be a ./deploy/<file> the service mounts.
    const mounted = new Map((lb.volumes ?? []).map(String).map((volume) => [volume.split(':')[1], volume.split(':')[0]!] as const));
    const withIncludes = (text: string) =>
      text.replace(/include\s+(\S+)\s*;/g, (directive, path: string) => {
        const source = mounted.get(path);
        return source && existsSync(projectFile(source)) ? read(source) : directive;
      });
    const nginx = mount && existsSync(projectFile(mount.split(':')[0]!)) ? withIncludes(read(mount.split(':')[0]!)).replace(/#.*$/gm, '') : '';

    it('is nginx with its configuration from deploy/, waiting for healthy gateways', () => {
      assert.ok(entry, 'no nginx or haproxy service');
      assert.ok(nginx, `${lbName} mounts no ./deploy/ nginx.conf`);
      assert.ok(lb.healthcheck?.test, `${lbName} has no health check`);
      for (const [name] of gateways) assert.equal((lb.depends_on as Record<string, { condition?: string }>)?.[name]?.condition, 'service_healthy', `${lbName} does not wait for ${name}`);
    });

    it('balances round-robin over exactly the gateways', () => {
      const upstreams = [...nginx.matchAll(/upstream\s+\S+\s*\{([^}]*)\}/g)];
      assert.equal(upstreams.length, 1);
      const block = upstreams[0]![1]!;
      assert.doesNotMatch(block, /\b(least_conn|ip_hash|hash|random|least_time)\b/, 'not round-robin');
      const servers = [...block.matchAll(/^\s*server\s+(\S+)/gm)].map((match) => match[1]!).sort();
      const expected = gateways.map(([name, service]) => `${edgeAddress(service) ?? name}:${loadConfig({ PORT: interpolate(environmentOf(service).PORT ?? '') }).PORT}`).sort();
      assert.deepEqual(servers, expected);
      assert.match(nginx, /proxy_pass\s+http:\/\/\w+\s*;/);
    });

    it('retries another instance on connection errors and 502/503, POSTs included', () => {
      const retry = /proxy_next_upstream\s+([^;]*);/.exec(nginx)?.[1]?.split(/\s+/) ?? [];
      for (const condition of ['error', 'http_502', 'http_503', 'non_idempotent']) assert.ok(retry.includes(condition), `proxy_next_upstream lacks ${condition}`);
    });

    it('is the only proxy the gateways trust, and replaces X-Forwarded-For', () => {
      const address = edgeAddress(lb);
      assert.ok(address, `${lbName} has no fixed address`);
      for (const [name, service] of gateways) assert.equal(environmentOf(service).TRUST_PROXY, address, `${name}: TRUST_PROXY`);
      assert.match(nginx, /proxy_set_header\s+X-Forwarded-For\s+\$remote_addr\s*;/);
    });

    it('publishes the public port', () => {
      assert.ok(publishedPorts(lb).length > 0);
    });
  });
});

/** The Dockerfile's instructions (continuation lines joined, comments dropped), split into stages. */
function dockerfileStages(): Array<Array<{ instruction: string; args: string }>> {
  const lines = read('Dockerfile').replace(/\\\r?\n/g, ' ').split(/\r?\n/).map((line) => line.trim()).filter((line) => line && !line.startsWith('#'));
  const stages: Array<Array<{ instruction: string; args: string }>> = [];
  for (const line of lines) {
    const [, instruction = '', args = ''] = /^(\S+)\s*(.*)$/.exec(line) ?? [];
    if (instruction.toUpperCase() === 'FROM') stages.push([]);
    stages.at(-1)?.push({ instruction: instruction.toUpperCase(), args });
  }
  return stages;
}

describe('Dockerfile', () => {
  const stages = dockerfileStages();
  const runtime = stages.at(-1) ?? [];
  const all = (instruction: string, stage = runtime) => stage.filter((line) => line.instruction === instruction).map((line) => line.args);

  // Node 20 reached its end of life in April 2026; 22 (until April 2027) and 24 (until April 2028) are the LTS
  // lines. The code itself must keep running on 20.19+ as well (package.json `engines`).
  it('is multi-stage on a supported Node LTS (22 or 24) bookworm-slim, the same in every stage, pinned by tag', () => {
    assert.ok(stages.length >= 2);
    const bases = stages.map((stage) => /^node:(\d+)-bookworm-slim(?:\s+AS\s+\S+)?$/i.exec(stage[0]!.args)?.[1]);
    for (const base of bases) assert.ok(base === '22' || base === '24', `FROM ${bases.join(', ')}`);
    assert.equal(new Set(bases).size, 1, 'the build and runtime stages use the same Node');
  });

  it('builds with npm ci in a build stage and installs production dependencies without scripts in the runtime stage', () => {
    assert.ok(stages.slice(0, -1).some((stage) => all('RUN', stage).some((run) => /\bnpm ci\b/.test(run) && !/--omit=dev/.test(run))));
    assert.ok(all('RUN').some((run) => /\bnpm ci\b/.test(run) && /--omit=dev/.test(run) && /--ignore-scripts/.test(run)));
    const copies = all('COPY').filter((copy) => copy.startsWith('--from='));
    for (const built of ['dist', 'packages/client/dist']) assert.ok(copies.some((copy) => copy.split(/\s+/).some((part) => part.replace(/^\/app\//, '') === built)), `${built} is not copied from the build`);
  });

  it('copies seeds/ into the image', () => {
    assert.ok(all('COPY').some((copy) => !copy.startsWith('--from=') && /(^|\s)\.?\/?seeds\/?(\s|$)/.test(copy)));
    assert.ok(existsSync(projectFile('seeds/sbp-banks.json')));
  });

  it('runs as a non-root user', () => {
    const users = all('USER');
    assert.ok(users.length > 0, 'no USER');
    assert.doesNotMatch(users.at(-1)!, /^(root|0)(:|$)/);
    const userAt = runtime.findLastIndex((line) => line.instruction === 'USER');
    const cmdAt = runtime.findLastIndex((line) => line.instruction === 'CMD' || line.instruction === 'ENTRYPOINT');
    assert.ok(userAt < cmdAt, 'USER comes after CMD');
  });

  it('has a HEALTHCHECK on /healthz, production mode, both ports and the gateway command', () => {
    assert.match(all('HEALTHCHECK').join(' '), /\/healthz/);
    assert.ok(all('ENV').some((env) => /\bNODE_ENV[= ]production\b/.test(env)));
    assert.ok(all('ENV').some((env) => /\bHOST[= ]0\.0\.0\.0\b/.test(env)), 'HOST=0.0.0.0 set explicitly: the gateway\'s own default is 127.0.0.1 outside production');
    assert.deepEqual(all('EXPOSE').join(' ').split(/\s+/).sort(), ['8080', '8081']);
    // The image runs exactly what `npm start` runs, node's options included.
    const start = (JSON.parse(read('package.json')) as { scripts: { start: string } }).scripts.start;
    const cmd = all('CMD').at(-1) ?? '';
    assert.equal(cmd.startsWith('[') ? (JSON.parse(cmd) as string[]).join(' ') : cmd, start);
    assert.match(start, /^node (--\S+ )*dist\/src\/main\.js$/);
  });
});

describe('.dockerignore', () => {
  it('keeps node_modules, data and dist out of the build context', () => {
    const entries = new Set(read('.dockerignore').split(/\r?\n/).map((line) => line.trim().replace(/^\/+|\/+$/g, '')));
    for (const entry of ['node_modules', 'data', 'dist']) assert.ok(entries.has(entry), `.dockerignore misses ${entry}`);
  });
});
