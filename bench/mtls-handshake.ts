/**
 * What mutual TLS costs (issue 14): bearer banks calls per second over the HTTPS listener with a client certificate
 * and a certificate-bound token (keep-alive: one handshake per connection), against the same calls over plain HTTP
 * with a bearer token, measured in the same run on the production build with the embedded database. Prints a JSON
 * line and a sentence with the ratio. `npm run bench:mtls`; BENCH_DURATION (seconds, default 10), BENCH_CONNECTIONS
 * (default 10).
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from '../test/support/free-port.js';
import { startGatewayProcess, stopGatewayProcess } from '../test/support/gateway-process.js';
import { createTestPki } from '../test/support/openssl-certificates.js';
import { call } from '../test/mtls/mtls-client.js';
import { runLoad } from './support/run-load.js';

const durationSec = Number(process.env.BENCH_DURATION ?? 10);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 10);
const ADMIN_TOKEN = randomBytes(24).toString('hex');
const pki = createTestPki();
const serverCa = pki.issue({ subject: '/CN=Bench CA', extensions: pki.caExtensions });
const server = pki.issue({ subject: '/CN=127.0.0.1', issuer: serverCa, extensions: pki.serverExtensions() });
const client = pki.issue({ subject: '/O=Bench/CN=bench-partner' });
const dataDir = mkdtempSync(join(tmpdir(), 'bench-mtls-'));
const tlsPort = await freePort();
const gateway = await startGatewayProcess(
  { DATA_DIR: dataDir, ADMIN_TOKEN, LOG_LEVEL: 'warn', TLS_PORT: String(tlsPort), TLS_CERT_FILE: server.certPath, TLS_KEY_FILE: server.keyPath },
  { build: true, echo: false },
);
try {
  const admin = (method: string, path: string, body: unknown) =>
    fetch(`${gateway.admin}${path}`, { method, headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json' }, body: JSON.stringify(body) }).then((r) => {
      if (!r.ok) throw new Error(`${method} ${path}: ${r.status}`);
    });
  const login = 'bench-partner';
  const password = randomBytes(18).toString('base64url');
  await admin('POST', '/admin/v1/partners', { login, password, ipAllowlist: ['127.0.0.1'], rewardTypes: ['sbp'] });
  await admin('PATCH', `/admin/v1/partners/${login}`, { authMethods: ['password', 'self_signed_tls_client_auth'] });
  await admin('PUT', `/admin/v1/partners/${login}/certificates`, { certificates: [client.cert] });
  const bearer = (await (await fetch(`${gateway.base}/api/v1/login/`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ login, password }) })).json()) as { access_token: string };
  const bound = await call(`https://127.0.0.1:${tlsPort}/api/v1/oauth/token`, { form: { grant_type: 'client_credentials', client_id: login }, client, ca: serverCa.cert });
  if (bound.status !== 200) throw new Error(`no bound token: ${bound.text}`);
  const banks = '/partner/provider/sbp/banks/';
  const plain = await runLoad({ url: `${gateway.base}${banks}`, method: 'POST', headers: { authorization: `Bearer ${bearer.access_token}` }, connections, durationSec });
  const mtls = await runLoad({
    url: `https://127.0.0.1:${tlsPort}${banks}`,
    method: 'POST',
    headers: { authorization: `Bearer ${bound.json.access_token}` },
    connections,
    durationSec,
    tls: { certFile: client.certPath, keyFile: client.keyPath },
  });
  const ratio = Math.round((mtls.rps / plain.rps) * 100) / 100;
  process.stdout.write(`${JSON.stringify({ plain, mtls, ratio })}\n`);
  process.stdout.write(
    `banks over HTTPS with a client certificate and a certificate-bound token (keep-alive, ${connections} connections): ${mtls.rps} req/s, p99 ${mtls.p99} ms; ` +
      `over plain HTTP with a bearer token: ${plain.rps} req/s, p99 ${plain.p99} ms; ratio ${ratio} (failed: ${mtls.failed} / ${plain.failed})\n`,
  );
} finally {
  await stopGatewayProcess(gateway, 'SIGTERM');
  rmSync(dataDir, { recursive: true, force: true });
  pki.remove();
}
