/**
 * The load balancer's configuration as shipped (deploy/nginx.conf and deploy/nginx-proxy.conf), run by a real
 * nginx in front of an upstream that echoes the headers it receives: the client certificate header the
 * gateways believe (CLIENT_CERT_HEADER) reaches them only from the mutual-TLS server, carrying the
 * certificate the client presented, and never as a client sent it. Only the addresses, ports and file paths
 * are rewritten for this machine. Outside CI a missing nginx skips the suite; under CI (.ci/run installs
 * nginx-light) it is a failure.
 */
import assert from 'node:assert/strict';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { X509Certificate } from 'node:crypto';
import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { projectFile } from '../../src/project-root.js';
import { freePort } from '../support/free-port.js';
import { createTestPki, type IssuedCertificate, type TestPki } from '../support/openssl-certificates.js';
import { waitFor } from '../support/wait-for.js';

const NGINX = ['/usr/sbin/nginx', '/usr/bin/nginx'].find((path) => spawnSync(path, ['-v']).status === 0);
const ON_CI = process.env.CI === 'true';
const skip = !NGINX && !ON_CI ? 'nginx not installed (apt-get install nginx-light); required when CI=true' : false;

interface Echoed {
  'x-client-cert'?: string;
  'x-forwarded-for'?: string;
}

describe('the load balancer configuration (deploy/nginx.conf)', { skip }, () => {
  let dir: string;
  let pki: TestPki;
  let client: IssuedCertificate;
  let upstream: Server;
  let nginx: ChildProcess;
  let plainPort: number;
  let tlsPort: number;

  before(async () => {
    assert.ok(NGINX, 'CI=true but nginx is missing: apt-get install nginx-light');
    dir = mkdtempSync(join(tmpdir(), 'nginx-test-'));
    pki = createTestPki();
    const server = pki.issue({ subject: '/CN=lb', extensions: pki.serverExtensions('127.0.0.1') });
    client = pki.issue({ subject: '/O=Acme/CN=partner-one' });
    upstream = createServer((request, response) => {
      response.setHeader('content-type', 'application/json');
      response.end(JSON.stringify(request.headers));
    });
    await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
    const upstreamPort = (upstream.address() as { port: number }).port;
    [plainPort, tlsPort] = [await freePort(), await freePort()];
    copyFileSync(projectFile('deploy/nginx-proxy.conf'), join(dir, 'nginx-proxy.conf'));
    const config = readFileSync(projectFile('deploy/nginx.conf'), 'utf8')
      // The gateways' service names, found again by Docker's DNS (`resolve`, nginx 1.27.3+): here one echoing
      // upstream at a fixed address, for Debian's nginx (1.22) which has no `resolve`.
      .replace(/server gateway-[12]:8080 max_fails=0 resolve;/g, `server 127.0.0.1:${upstreamPort} max_fails=0;`)
      .replace('listen 8080;', `listen 127.0.0.1:${plainPort};`)
      .replace('listen 8443 ssl;', `listen 127.0.0.1:${tlsPort} ssl;`)
      .replaceAll('/etc/nginx/nginx-proxy.conf', join(dir, 'nginx-proxy.conf'))
      .replace('/etc/nginx/tls/server.crt', server.certPath)
      .replace('/etc/nginx/tls/server.key', server.keyPath)
      .replace('pid /tmp/nginx.pid;', `pid ${join(dir, 'nginx.pid')};`)
      .replace('error_log /dev/stderr warn;', `error_log ${join(dir, 'error.log')} warn;`)
      .replace('access_log /dev/stdout combined;', 'access_log off;');
    writeFileSync(join(dir, 'nginx.conf'), config);
    // -e: nginx opens its default error log before reading the configuration; this one is writable anywhere.
    const check = spawnSync(NGINX!, ['-t', '-e', join(dir, 'error.log'), '-p', dir, '-c', join(dir, 'nginx.conf')], { encoding: 'utf8' });
    assert.equal(check.status, 0, check.stderr);
    nginx = spawn(NGINX!, ['-e', join(dir, 'error.log'), '-p', dir, '-c', join(dir, 'nginx.conf'), '-g', 'daemon off;'], { stdio: 'ignore' });
    await waitForPort(plainPort);
  });

  after(async () => {
    nginx?.kill('SIGTERM');
    await new Promise<void>((resolve) => (upstream ? upstream.close(() => resolve()) : resolve()));
    pki?.remove();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('passes the certificate a client presents on the mutual-TLS server, as URL-encoded PEM, and the real client address', async () => {
    const echoed = await callTls({ cert: client.cert, key: client.key, headers: { 'x-client-cert': 'forged', 'x-forwarded-for': '203.0.113.9' } });
    assert.ok(echoed['x-client-cert'], 'the certificate header is set');
    const pem = decodeURIComponent(echoed['x-client-cert']!);
    assert.equal(new X509Certificate(pem).fingerprint256, new X509Certificate(client.cert).fingerprint256);
    assert.equal(echoed['x-forwarded-for'], '127.0.0.1');
  });

  it('sends no certificate header from the mutual-TLS server when the client presented none, whatever the client sent', async () => {
    const echoed = await callTls({ headers: { 'x-client-cert': encodeURIComponent(client.cert) } });
    assert.equal(echoed['x-client-cert'], undefined);
  });

  it('drops a certificate header a client sends to the plain server', async () => {
    const response = await fetch(`http://127.0.0.1:${plainPort}/healthz`, { headers: { 'x-client-cert': encodeURIComponent(client.cert) } });
    const echoed = (await response.json()) as Echoed;
    assert.equal(echoed['x-client-cert'], undefined);
  });

  function callTls(options: { cert?: string; key?: string; headers?: Record<string, string> }): Promise<Echoed> {
    return new Promise((resolve, reject) => {
      const request = httpsRequest(
        {
          host: '127.0.0.1',
          port: tlsPort,
          path: '/healthz',
          ca: readFileSync(join(pki.dir, 'cert-1.pem')),
          headers: options.headers ?? {},
          ...(options.cert ? { cert: options.cert, key: options.key } : {}),
        },
        (response) => {
          let body = '';
          response.setEncoding('utf8');
          response.on('data', (chunk) => (body += chunk));
          response.on('end', () => resolve(JSON.parse(body) as Echoed));
        },
      );
      request.on('error', reject);
      request.end();
    });
  }
});

async function waitForPort(port: number): Promise<void> {
  await waitFor(() => fetch(`http://127.0.0.1:${port}/healthz`).then(() => true), { timeout: 5_000, message: `nginx to listen on ${port}` });
}
