/**
 * QUERY with no body on a path that does not serve it (issue 33, finding 8): Fastify refuses a QUERY without
 * Content-Type (RFC 10008) with 400 before any route runs, so it was answered 400 where every other unserved
 * method gets 405 and `Allow`. Over real connections to a gateway process, on each of its three listeners.
 */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { connect as connectTcp } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { connect as connectTls } from 'node:tls';
import { after, before, describe, it } from 'node:test';
import { freePort } from '../support/free-port.js';
import { startGatewayProcess, stopGatewayProcess, type GatewayProcess } from '../support/gateway-process.js';
import { createTestPki } from '../support/openssl-certificates.js';

const ADMIN_TOKEN = randomBytes(32).toString('hex');

/** Sends `head` as it is and reads the answer's status line, headers and body (the connection closed after). */
function exchange(connection: () => import('node:net').Socket, head: string): Promise<{ status: number; headers: Record<string, string>; body: string }> {
  return new Promise((resolve, reject) => {
    const socket = connection();
    let text = '';
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => (text += chunk));
    socket.on('error', reject);
    socket.on('end', () => {
      const [top = '', body = ''] = text.split('\r\n\r\n');
      const [statusLine = '', ...lines] = top.split('\r\n');
      const headers = Object.fromEntries(lines.map((line) => [line.slice(0, line.indexOf(':')).toLowerCase(), line.slice(line.indexOf(':') + 1).trim()]));
      resolve({ status: Number(statusLine.split(' ')[1]), headers, body });
    });
    socket.write(head);
  });
}

describe('a method a path does not serve, over real connections to every listener', () => {
  const pki = createTestPki();
  const serverCa = pki.issue({ subject: '/CN=Server CA', extensions: pki.caExtensions });
  const serverCert = pki.issue({ subject: '/CN=127.0.0.1', issuer: serverCa, extensions: pki.serverExtensions() });
  const dataDir = mkdtempSync(join(tmpdir(), 'gateway-query-'));
  let gateway: GatewayProcess;
  let tlsPort = 0;
  before(async () => {
    tlsPort = await freePort();
    gateway = await startGatewayProcess({
      DATA_DIR: dataDir,
      ADMIN_TOKEN,
      TLS_PORT: String(tlsPort),
      TLS_CERT_FILE: pki.write('server.pem', serverCert.cert),
      TLS_KEY_FILE: pki.write('server.key', serverCert.key),
    });
  });
  after(async () => {
    if (gateway) await stopGatewayProcess(gateway, 'SIGKILL');
    rmSync(dataDir, { recursive: true, force: true });
    pki.remove();
  });

  const listeners = () => [
    { name: 'public', path: '/api/v1/login/', allow: 'POST', auth: '', connection: () => connectTcp(gateway.port, '127.0.0.1') },
    { name: 'admin', path: '/admin/v1/partners', allow: 'GET, HEAD, POST', auth: `Authorization: Bearer ${ADMIN_TOKEN}\r\n`, connection: () => connectTcp(gateway.adminPort, '127.0.0.1') },
    { name: 'HTTPS', path: '/api/v1/login/', allow: 'POST', auth: '', connection: () => connectTls({ host: '127.0.0.1', port: tlsPort, ca: serverCa.cert, servername: '127.0.0.1' }) },
  ];

  it('when QUERY comes with an empty body (no Content-Type), or another unserved method comes, then 405 with Allow and the JSON error, on each listener', async () => {
    const failures: string[] = [];
    for (const listener of listeners()) {
      for (const [label, request] of [
        ['QUERY, no body', 'QUERY {path} HTTP/1.1\r\nHost: gateway\r\n{auth}Connection: close\r\n\r\n'],
        ['QUERY, Content-Length: 0', 'QUERY {path} HTTP/1.1\r\nHost: gateway\r\n{auth}Content-Length: 0\r\nConnection: close\r\n\r\n'],
        ['QUERY, a JSON body', 'QUERY {path} HTTP/1.1\r\nHost: gateway\r\n{auth}Content-Type: application/json\r\nContent-Length: 2\r\nConnection: close\r\n\r\n{}'],
        ['PROPFIND', 'PROPFIND {path} HTTP/1.1\r\nHost: gateway\r\n{auth}Connection: close\r\n\r\n'],
        ['PUT', 'PUT {path} HTTP/1.1\r\nHost: gateway\r\n{auth}Content-Length: 0\r\nConnection: close\r\n\r\n'],
        ['an unknown method', 'FROBNICATE {path} HTTP/1.1\r\nHost: gateway\r\n{auth}Connection: close\r\n\r\n'],
      ] as const) {
        const answer = await exchange(listener.connection, request.replace('{path}', listener.path).replace('{auth}', listener.auth));
        const problem =
          answer.status !== 405 ? `status ${answer.status}` : answer.headers.allow !== listener.allow ? `Allow ${answer.headers.allow}` : !/"description_status":"This method is not allowed here/.test(answer.body) ? `body ${answer.body}` : undefined;
        if (problem) failures.push(`${listener.name} ${label}: ${problem}`);
      }
    }
    assert.deepEqual(failures, []);
  });
});
