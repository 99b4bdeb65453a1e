import assert from 'node:assert/strict';
import { request as httpRequest } from 'node:http';
import { Writable } from 'node:stream';
import { after, before, describe, it } from 'node:test';
import Fastify, { type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import { pino } from 'pino';
import { createTestPki } from '../../../test/support/openssl-certificates.js';
import { readClientCertificate } from '../../mtls/client-certificate.js';
import { errorHandler } from './error-handler.js';
import { requestContext } from './request-context.js';

const pki = createTestPki();
const client = pki.issue({ subject: '/O=Acme/CN=partner-one' });
const HEADER = 'X-Client-Cert';
// Linux routes all of 127.0.0.0/8 to the loopback interface: a request from 127.0.0.2 comes from "the proxy",
// one from 127.0.0.1 from anyone else, to the same listener.
const PROXY = '127.0.0.2';

const logLines: Array<Record<string, unknown>> = [];
const logger = pino({ level: 'info' }, new Writable({ write(chunk, _encoding, done) { logLines.push(JSON.parse(String(chunk))); done(); } }));
let app: FastifyInstance;
let port = 0;

function get(headers: Record<string, string>, localAddress = '127.0.0.1'): Promise<{ status: number; body: { thumbprint: string | null } }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: '127.0.0.1', port, path: '/whoami', headers, localAddress }, (res) => {
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
  await app.register(errorHandler, { validation: 'parameter' });
  await app.register(requestContext, { baseUrl: 'http://127.0.0.1', certificates: { header: HEADER, trustedProxies: [PROXY, '10.0.0.0/8'] }, auditTrail: { full: () => false } });
  app.get('/whoami', async (request) => ({ thumbprint: request.requestContext.certificate?.thumbprint ?? null }));
  await app.listen({ host: '127.0.0.1', port: 0 });
  port = (app.server.address() as { port: number }).port;
});
after(async () => {
  await app.close();
  pki.remove();
});

describe('the certificate reader, behind a proxy', () => {
  const thumbprint = readClientCertificate(client.cert).thumbprint;

  it('when a TRUST_PROXY address sends the header, then the context holds its certificate', async () => {
    assert.deepEqual(await get({ [HEADER]: encodeURIComponent(client.cert) }, PROXY), { status: 200, body: { thumbprint } });
    assert.deepEqual(await get({}, PROXY), { status: 200, body: { thumbprint: null } });
    assert.deepEqual(await get({ [HEADER]: '' }, PROXY), { status: 200, body: { thumbprint: null } }, 'nginx sends an empty value without a certificate');
  });

  it('when any other address sends the header, then it is ignored and logged once per address, without its value', async () => {
    logLines.length = 0;
    for (let i = 0; i < 3; i += 1) {
      assert.deepEqual(await get({ [HEADER]: encodeURIComponent(client.cert) }), { status: 200, body: { thumbprint: null } });
    }
    const warnings = logLines.filter((line) => line.reason === 'untrusted_client_certificate_header');
    assert.equal(warnings.length, 1);
    assert.equal(warnings[0]!.address, '127.0.0.1');
    assert.ok(!JSON.stringify(logLines).includes('BEGIN'), 'the header value is never logged');
  });

  it('when the trusted proxy sends a malformed header, then there is no certificate and the route still answers', async () => {
    logLines.length = 0;
    assert.deepEqual(await get({ [HEADER]: encodeURIComponent(`${client.cert}${client.cert}`) }, PROXY), { status: 200, body: { thumbprint: null } });
    assert.ok(logLines.some((line) => line.reason === 'unreadable_client_certificate_header'));
  });
});
