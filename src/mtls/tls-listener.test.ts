import assert from 'node:assert/strict';
import { X509Certificate } from 'node:crypto';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { copyFileSync, writeFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { Agent, request as httpsRequest } from 'node:https';
import type { TLSSocket } from 'node:tls';
import { Writable } from 'node:stream';
import { after, before, describe, it } from 'node:test';
import Fastify, { type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import { pino } from 'pino';
import { createTestPki, type IssuedCertificate } from '../../test/support/openssl-certificates.js';
import { REQUEST_TIMEOUTS } from '../http/app.js';
import { errorHandler } from '../http/plugins/error-handler.js';
import { requestContext } from '../http/plugins/request-context.js';
import { clientErrorHandler } from '../http/plugins/error-handler.js';
import { readClientCertificate } from './client-certificate.js';
import { loadTlsFiles, type TlsFiles } from './tls-files.js';
import { startTlsListener, type TlsListener } from './tls-listener.js';
import { verifyClientCertificate } from '../auth/credentials/verify-client-certificate.js';

const pki = createTestPki();
const serverCa = pki.issue({ subject: '/CN=Server CA', extensions: pki.caExtensions });
const nextServerCa = pki.issue({ subject: '/CN=Next Server CA', extensions: pki.caExtensions });
const serverCert = pki.issue({ subject: '/CN=127.0.0.1', issuer: serverCa, extensions: pki.serverExtensions() });
const nextServerCert = pki.issue({ subject: '/CN=127.0.0.1', issuer: nextServerCa, extensions: pki.serverExtensions() });
const clientCa = pki.issue({ subject: '/CN=Partner CA', extensions: pki.caExtensions });
const selfSigned = pki.issue({ subject: '/O=Acme/CN=partner-one' });
const caIssued = pki.issue({ subject: '/C=RU/O=Acme/CN=partner-two', issuer: clientCa });
// The listener reads these paths; a test overwrites them to rotate the certificate.
const certFile = pki.write('server.pem', serverCert.cert);
const keyFile = pki.write('server.key', serverCert.key);
const caFile = pki.write('clients-ca.pem', clientCa.cert);
const HEADER = 'x-client-cert';

const logLines: Array<Record<string, unknown>> = [];
const logger = pino({ level: 'info' }, new Writable({ write(chunk, _encoding, done) { logLines.push(JSON.parse(String(chunk))); done(); } }));
let app: FastifyInstance;
let files: TlsFiles;
let tls: TlsListener;
let plainPort = 0;
/** How often each TLS socket was asked for its peer certificate: the plugin keeps the parsed one per socket. */
const peerCertificateCalls = new WeakMap<TLSSocket, { count: number }>();

interface Answer {
  status: number;
  body: { thumbprint: string | null; protocol: string };
  serverCertificate?: string;
  reused?: boolean;
}

function viaTls(options: { client?: IssuedCertificate; agent?: Agent; headers?: Record<string, string>; ca?: string } = {}): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = httpsRequest(
      {
        host: '127.0.0.1',
        port: tls.port,
        path: '/whoami',
        ca: options.ca ?? serverCa.cert,
        headers: options.headers,
        agent: options.agent ?? false,
        ...(options.client ? { cert: options.client.cert, key: options.client.key } : {}),
      },
      (res) => {
        // Read now: a keep-alive agent takes the socket back once the body has been read.
        const serverCertificate = (res.socket as TLSSocket).getPeerCertificate().fingerprint256;
        let text = '';
        res.on('data', (chunk) => (text += chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: JSON.parse(text), serverCertificate, reused: req.reusedSocket }));
      },
    );
    req.on('error', reject);
    req.end();
  });
}

function viaPlainHttp(headers: Record<string, string> = {}): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: '127.0.0.1', port: plainPort, path: '/whoami', headers }, (res) => {
      let text = '';
      res.on('data', (chunk) => (text += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: JSON.parse(text) }));
    });
    req.on('error', reject);
    req.end();
  });
}

before(async () => {
  app = Fastify({ loggerInstance: logger as FastifyBaseLogger });
  // Registered first, so that it runs before the plugin's hook: counts the real socket's calls, changes nothing.
  app.addHook('onRequest', async (request) => {
    const socket = request.raw.socket as TLSSocket;
    if (!socket.encrypted || peerCertificateCalls.has(socket)) return;
    const calls = { count: 0 };
    peerCertificateCalls.set(socket, calls);
    const original = socket.getPeerCertificate.bind(socket);
    socket.getPeerCertificate = ((detailed: boolean) => {
      calls.count += 1;
      return original(detailed);
    }) as TLSSocket['getPeerCertificate'];
  });
  app.get('/sockets', async (request) => ({ calls: peerCertificateCalls.get(request.raw.socket as TLSSocket)?.count ?? null }));
  await app.register(errorHandler, { validation: 'parameter' });
  await app.register(requestContext, { baseUrl: 'http://127.0.0.1', certificates: { header: HEADER, trustedProxies: ['127.0.0.1'] }, auditTrail: { full: () => false } });
  app.get('/whoami', async (request) => ({ thumbprint: request.requestContext.certificate?.thumbprint ?? null, protocol: request.protocol }));
  await app.listen({ host: '127.0.0.1', port: 0 });
  plainPort = (app.server.address() as { port: number }).port;
  files = loadTlsFiles({ certFile, keyFile, clientCaFile: caFile });
  tls = await startTlsListener({ app, files, host: '127.0.0.1', port: 0, logger, timeouts: REQUEST_TIMEOUTS, onClientError: clientErrorHandler });
});
after(async () => {
  await tls.close();
  await app.close();
  pki.remove();
});

const fingerprint = (issued: IssuedCertificate) => new X509Certificate(issued.cert).fingerprint256;

describe('the HTTPS listener', () => {
  it('serves the plain listener\'s routes to a client without a certificate', async () => {
    assert.deepEqual((await viaTls()).body, { thumbprint: null, protocol: 'https' });
    assert.deepEqual((await viaPlainHttp()).body, { thumbprint: null, protocol: 'http' });
  });

  it('gives the route the certificate a client presented, self-signed or CA-issued, accepted by the handshake either way', async () => {
    for (const client of [selfSigned, caIssued]) {
      const answer = await viaTls({ client });
      assert.equal(answer.status, 200);
      assert.equal(answer.body.thumbprint, readClientCertificate(client.cert).thumbprint);
    }
  });

  it('hands over what tls_client_auth needs: the configured CAs verify the certificate the connection carried', async () => {
    const presented = readClientCertificate(caIssued.cert);
    assert.equal((await viaTls({ client: caIssued })).body.thumbprint, presented.thumbprint);
    const check = verifyClientCertificate(presented, { method: 'tls_client_auth', subjectDn: 'CN=partner-two,O=Acme,C=RU', trustedCas: files.trustedCas() });
    assert.deepEqual(check, { ok: true });
  });

  it('lets through, for the route to refuse, an expired certificate and the right subject from a CA not configured', async () => {
    const DAY = 86_400_000;
    const expired = pki.issue({ subject: '/C=RU/O=Acme/CN=partner-two', issuer: clientCa, notBefore: new Date(Date.now() - 9 * DAY), notAfter: new Date(Date.now() - DAY) });
    const strangerCa = pki.issue({ subject: '/CN=Stranger CA', extensions: pki.caExtensions });
    const stranger = pki.issue({ subject: '/C=RU/O=Acme/CN=partner-two', issuer: strangerCa });
    const expectation = { method: 'tls_client_auth' as const, subjectDn: 'CN=partner-two,O=Acme,C=RU', trustedCas: files.trustedCas() };
    for (const [client, reason] of [[expired, 'certificate_not_valid_now'], [stranger, 'certificate_not_issued_by_trusted_ca']] as const) {
      const answer = await viaTls({ client });
      assert.equal(answer.status, 200, 'the handshake does not decide');
      const presented = readClientCertificate(client.cert);
      assert.equal(answer.body.thumbprint, presented.thumbprint);
      assert.deepEqual(verifyClientCertificate(presented, expectation), { ok: false, reason });
    }
  });

  it('reads the certificate once per connection, however many requests it carries', async () => {
    const kept = new Agent({ keepAlive: true, maxSockets: 1 });
    try {
      for (let i = 0; i < 3; i += 1) assert.equal((await viaTls({ agent: kept, client: selfSigned })).body.thumbprint, readClientCertificate(selfSigned.cert).thumbprint);
      const calls = await new Promise<unknown>((resolve, reject) => {
        httpsRequest({ host: '127.0.0.1', port: tls.port, path: '/sockets', ca: serverCa.cert, agent: kept, cert: selfSigned.cert, key: selfSigned.key }, (res) => {
          let text = '';
          res.on('data', (chunk) => (text += chunk));
          res.on('end', () => resolve(JSON.parse(text)));
        }).on('error', reject).end();
      });
      assert.deepEqual(calls, { calls: 1 });
    } finally {
      kept.destroy();
    }
  });

  it('gives the route the certificate curl presents with --cert/--key', async () => {
    // Asynchronous: the listener runs in this process, and a synchronous child would block it.
    const { stdout: body } = await promisify(execFile)('curl', ['--silent', '--show-error', '--cacert', serverCa.certPath, '--cert', caIssued.certPath, '--key', caIssued.keyPath, `https://127.0.0.1:${tls.port}/whoami`], { encoding: 'utf8' });
    assert.deepEqual(JSON.parse(body), { thumbprint: readClientCertificate(caIssued.cert).thumbprint, protocol: 'https' });
  });

  it('ignores the proxy header on a TLS connection: only the handshake\'s certificate counts there', async () => {
    const answer = await viaTls({ headers: { [HEADER]: encodeURIComponent(selfSigned.cert) } });
    assert.equal(answer.body.thumbprint, null);
    const plain = await viaPlainHttp({ [HEADER]: encodeURIComponent(selfSigned.cert) });
    assert.equal(plain.body.thumbprint, readClientCertificate(selfSigned.cert).thumbprint, 'the same header from the trusted proxy over plain HTTP is read');
  });

  it('takes a new server certificate on reload for the next connection, while an open keep-alive connection stays up', async () => {
    const kept = new Agent({ keepAlive: true, maxSockets: 1 });
    try {
      const first = await viaTls({ agent: kept, client: selfSigned });
      assert.equal(first.serverCertificate, fingerprint(serverCert));
      copyFileSync(nextServerCert.certPath, certFile);
      copyFileSync(nextServerCert.keyPath, keyFile);
      assert.equal(tls.reloadTlsFiles(), true);

      const fresh = await viaTls({ ca: nextServerCa.cert });
      assert.equal(fresh.serverCertificate, fingerprint(nextServerCert));
      const again = await viaTls({ agent: kept, client: selfSigned });
      assert.equal(again.reused, true, 'the keep-alive connection was not dropped');
      assert.equal(again.serverCertificate, fingerprint(serverCert));
      assert.equal(again.body.thumbprint, readClientCertificate(selfSigned.cert).thumbprint);
    } finally {
      kept.destroy();
    }
  });

  it('keeps the certificate in use when a reloaded file is bad, logging why without any key material', async () => {
    logLines.length = 0;
    writeFileSync(keyFile, serverCert.key);
    assert.equal(tls.reloadTlsFiles(), false, 'a key that does not match the certificate');
    writeFileSync(keyFile, 'not a key');
    assert.equal(tls.reloadTlsFiles(), false);
    const errors = logLines.filter((line) => line.reason === 'tls_reload_failed');
    assert.equal(errors.length, 2);
    assert.match(String(errors[0]!.problem), /TLS_CERT_FILE .* cannot be used/);
    assert.ok(!JSON.stringify(logLines).includes(serverCert.key.split('\n')[1]!.slice(0, 16)));
    assert.equal((await viaTls({ ca: nextServerCa.cert })).serverCertificate, fingerprint(nextServerCert));
    copyFileSync(nextServerCert.keyPath, keyFile);
  });
});
