import assert from 'node:assert/strict';
import { X509Certificate } from 'node:crypto';
import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { Agent, request } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TLSSocket } from 'node:tls';
import { after, before, describe, it } from 'node:test';
import { freePort } from '../support/free-port.js';
import { startGatewayProcess, stopGatewayProcess, type GatewayProcess } from '../support/gateway-process.js';
import { createTestPki, type IssuedCertificate } from '../support/openssl-certificates.js';
import { waitFor } from '../support/wait-for.js';

// The gateway as operators run it (src/main.ts, its own process): the HTTPS listener starts from TLS_PORT, takes
// new certificate files on SIGHUP without dropping connections, and closes on SIGTERM like the plain one.
const pki = createTestPki();
const serverCa = pki.issue({ subject: '/CN=Server CA', extensions: pki.caExtensions });
const nextServerCa = pki.issue({ subject: '/CN=Next Server CA', extensions: pki.caExtensions });
const serverCert = pki.issue({ subject: '/CN=127.0.0.1', issuer: serverCa, extensions: pki.serverExtensions() });
const nextServerCert = pki.issue({ subject: '/CN=127.0.0.1', issuer: nextServerCa, extensions: pki.serverExtensions() });
const client = pki.issue({ subject: '/O=Acme/CN=partner-one' });
const certFile = pki.write('server.pem', serverCert.cert);
const keyFile = pki.write('server.key', serverCert.key);
const dataDir = mkdtempSync(join(tmpdir(), 'gw-mtls-'));
let gateway: GatewayProcess;
let tlsPort = 0;

function readyz(ca: string, options: { agent?: Agent; client?: IssuedCertificate } = {}): Promise<{ status: number; server: string; reused: boolean }> {
  return new Promise((resolve, reject) => {
    const req = request(
      { host: '127.0.0.1', port: tlsPort, path: '/readyz', ca, agent: options.agent ?? false, ...(options.client ? { cert: options.client.cert, key: options.client.key } : {}) },
      (res) => {
        const server = (res.socket as TLSSocket).getPeerCertificate().fingerprint256;
        res.resume();
        res.on('end', () => resolve({ status: res.statusCode ?? 0, server, reused: req.reusedSocket }));
      },
    );
    req.on('error', reject);
    req.end();
  });
}

const fingerprint = (issued: IssuedCertificate) => new X509Certificate(issued.cert).fingerprint256;

before(async () => {
  tlsPort = await freePort();
  gateway = await startGatewayProcess({ DATA_DIR: dataDir, TLS_PORT: String(tlsPort), TLS_CERT_FILE: certFile, TLS_KEY_FILE: keyFile });
});
after(async () => {
  if (gateway) await stopGatewayProcess(gateway, 'SIGKILL');
  rmSync(dataDir, { recursive: true, force: true });
  pki.remove();
});

describe('the HTTPS listener of a running gateway', () => {
  it('serves the public API over TLS, with and without a client certificate', async () => {
    assert.equal((await readyz(serverCa.cert)).status, 200);
    assert.equal((await readyz(serverCa.cert, { client })).status, 200);
  });

  it('takes new certificate files on SIGHUP for the next connection, keeping an open keep-alive connection', async () => {
    const kept = new Agent({ keepAlive: true, maxSockets: 1 });
    try {
      assert.equal((await readyz(serverCa.cert, { agent: kept })).server, fingerprint(serverCert));
      copyFileSync(nextServerCert.certPath, certFile);
      copyFileSync(nextServerCert.keyPath, keyFile);
      gateway.process.kill('SIGHUP');
      // A new connection gets the new certificate once the process has read the files.
      await waitFor(async () => (await readyz(nextServerCa.cert).then((answer) => answer.server, () => '')) === fingerprint(nextServerCert), { message: 'a new connection to get the new certificate' });
      const again = await readyz(serverCa.cert, { agent: kept });
      assert.deepEqual([again.status, again.reused, again.server], [200, true, fingerprint(serverCert)]);
      assert.equal(gateway.process.exitCode, null, 'SIGHUP does not end the process');
    } finally {
      kept.destroy();
    }
  });

  it('stops on SIGTERM with the HTTPS listener closed, even with a keep-alive connection open', async () => {
    const kept = new Agent({ keepAlive: true, maxSockets: 1 });
    assert.equal((await readyz(nextServerCa.cert, { agent: kept })).status, 200);
    assert.equal(await stopGatewayProcess(gateway, 'SIGTERM'), 0);
    await assert.rejects(readyz(nextServerCa.cert), /ECONNREFUSED/);
    kept.destroy();
  });
});
