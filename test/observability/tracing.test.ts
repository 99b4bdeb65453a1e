import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { startGatewayProcess, stopGatewayProcess, type GatewayProcess } from '../support/gateway-process.js';
import { testBackends } from '../support/test-databases.js';
import { startTestGateway } from '../support/test-gateway.js';

const BANKS = '/partner/provider/sbp/banks/';
const REQUEST_ID_ATTRIBUTE = 'partner_gateway.request_id';

interface ReceivedSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  attributes: Record<string, unknown>;
}

/** OTLP/HTTP JSON carries ids as hex (the JS exporter) or base64 (the protobuf JSON mapping): read either. */
function hexId(id: string): string {
  return /^[0-9a-f]+$/.test(id) ? id : Buffer.from(id, 'base64').toString('hex');
}

/** A collector of our own on loopback: every span posted to /v1/traces as OTLP/HTTP JSON. */
async function startReceiver(): Promise<{ server: Server; url: string; spans: ReceivedSpan[]; contentTypes: string[] }> {
  const spans: ReceivedSpan[] = [];
  const contentTypes: string[] = [];
  const server = createServer((request, response) => {
    let body = '';
    request.setEncoding('utf8').on('data', (chunk: string) => (body += chunk));
    request.on('end', () => {
      contentTypes.push(`${request.method} ${request.url} ${request.headers['content-type']}`);
      const parsed = JSON.parse(body) as { resourceSpans: Array<{ scopeSpans: Array<{ spans: Array<{ traceId: string; spanId: string; parentSpanId?: string; name: string; attributes?: Array<{ key: string; value: Record<string, unknown> }> }> }> }> };
      for (const resource of parsed.resourceSpans)
        for (const scope of resource.scopeSpans)
          for (const span of scope.spans) {
            spans.push({
              traceId: hexId(span.traceId),
              spanId: hexId(span.spanId),
              ...(span.parentSpanId ? { parentSpanId: hexId(span.parentSpanId) } : {}),
              name: span.name,
              attributes: Object.fromEntries((span.attributes ?? []).map(({ key, value }) => [key, Object.values(value)[0]])),
            });
          }
      response.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, spans, contentTypes };
}

describe('OpenTelemetry traces (OTEL_EXPORTER_OTLP_ENDPOINT)', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'gateway-tracing-'));
  const adminToken = randomBytes(32).toString('hex');
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  let gateway: GatewayProcess | undefined;

  before(async () => {
    receiver = await startReceiver();
  });
  after(async () => {
    if (gateway) await stopGatewayProcess(gateway, 'SIGKILL');
    receiver?.server.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('when a banks call carries a traceparent, then the local collector receives its spans in that trace, each with the request id, and its log lines carry the trace id', async () => {
    gateway = await startGatewayProcess(
      {
        OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url,
        LOG_LEVEL: 'info',
        DATA_DIR: dataDir,
        ADMIN_TOKEN: adminToken,
        MASTER_KEY: randomBytes(32).toString('hex'),
        ALLOW_EMBEDDED_DATABASE: 'true',
      },
      { echo: false },
    );
    const partner = { login: `traced-${process.pid}`, password: 'a traced partner password' };
    const created = await fetch(`${gateway.admin}/admin/v1/partners`, {
      method: 'POST',
      headers: { authorization: `Bearer ${adminToken}`, 'content-type': 'application/json' },
      body: JSON.stringify({ ...partner, ipAllowlist: ['127.0.0.1'], rewardTypes: ['sbp'] }),
    });
    assert.equal(created.status, 201, await created.text());
    const login = await fetch(`${gateway.base}/api/v1/login/`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(partner) });
    assert.equal(login.status, 200);
    const token = ((await login.json()) as { access_token: string }).access_token;

    const traceId = randomBytes(16).toString('hex');
    const callerSpanId = randomBytes(8).toString('hex');
    const requestId = `traced-banks-${process.pid}`;
    const banks = await fetch(`${gateway.base}${BANKS}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, traceparent: `00-${traceId}-${callerSpanId}-01`, 'x-request-id': requestId },
    });
    assert.equal(banks.status, 200);
    assert.equal((await fetch(`${gateway.base}/readyz`)).status, 200);

    // A graceful stop sends the spans still batched: nothing to wait for but the exit.
    assert.equal(await stopGatewayProcess(gateway), 0);
    const stdout = gateway.stdout();
    gateway = undefined;

    const spans = receiver.spans.filter((span) => span.traceId === traceId);
    assert.ok(receiver.contentTypes.every((line) => line === 'POST /v1/traces application/json'), receiver.contentTypes.join('\n'));
    const server = spans.find((span) => span.parentSpanId === callerSpanId);
    assert.ok(server, `a span continues the caller's: ${JSON.stringify(receiver.spans, null, 1)}`);
    assert.equal(server.name, `POST ${BANKS}`);
    assert.equal(server.attributes['http.response.status_code'], 200);
    assert.ok(spans.length >= 2, 'the request span and its handler\'s');
    for (const span of spans) assert.equal(span.attributes[REQUEST_ID_ATTRIBUTE], requestId, span.name);
    assert.ok(spans.some((span) => span.parentSpanId === server.spanId), 'the handler\'s span under the request span');
    assert.ok(!receiver.spans.some((span) => String(span.attributes['url.path']).startsWith('/readyz')), 'probes are not traced');
    assert.ok(!JSON.stringify(receiver.spans).includes(token) && !JSON.stringify(receiver.spans).includes(partner.password), 'no secret in a span');

    const lines = stdout.split('\n').filter((line) => line.includes(requestId)).map((line) => JSON.parse(line) as { traceId?: string; msg: string });
    assert.ok(lines.some((line) => line.msg === 'request'), stdout);
    for (const line of lines) assert.equal(line.traceId, traceId, JSON.stringify(line));
  });

  it('when OTEL_EXPORTER_OTLP_ENDPOINT is unset, then nothing is traced: the log lines of a call with a traceparent carry no trace id', async () => {
    const t = await startTestGateway(testBackends()[0]!);
    try {
      const response = await t.app.inject({ method: 'GET', url: '/.well-known/jwks.json', headers: { traceparent: `00-${randomBytes(16).toString('hex')}-${randomBytes(8).toString('hex')}-01` } });
      assert.equal(response.statusCode, 200);
      const line = t.logs.map((text) => JSON.parse(text) as Record<string, unknown>).find((entry) => entry.msg === 'request');
      assert.ok(line);
      assert.equal(line.traceId, undefined);
    } finally {
      await t.close();
    }
  });
});
