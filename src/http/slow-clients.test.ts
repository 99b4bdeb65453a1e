import assert from 'node:assert/strict';
import { connect, type AddressInfo, type Socket } from 'node:net';
import { after, before, describe, it } from 'node:test';
import type { FastifyInstance } from 'fastify';
import { pino } from 'pino';
import { errors } from '../errors.js';
import { assertErrorShape } from '../../test/support/error-shape.js';
import { testBackends } from '../../test/support/test-databases.js';
import { startTestGateway, type TestGateway } from '../../test/support/test-gateway.js';
import type { RequestTimeouts } from '../mtls/request-timeouts.js';
import { buildApp, REQUEST_TIMEOUTS } from './app.js';

// Clients that are slow or oversized, against real listeners and raw sockets (inject() has no socket to be
// slow on): every one is answered in the JSON error shape, or at least disconnected, within a bound.

/** Short bounds for the slow-client tests; production uses REQUEST_TIMEOUTS (10 s / 30 s, checked every second). */
const SHORT: RequestTimeouts = { headersMs: 600, requestMs: 1_000, checkIntervalMs: 100 };
/** Bound plus check interval, plus slack for a loaded test machine (still far below the 30 s to 90 s at stake). */
const CLOSED_WITHIN_MS = SHORT.requestMs + SHORT.checkIntervalMs + 3_000;

interface RawAnswer {
  /** Everything the server sent before closing. */
  raw: string;
  status?: number;
  headers: Record<string, string>;
  body: string;
  /** Milliseconds from connecting to the server closing the connection; undefined if it was still open at `giveUpMs`. */
  closedAfterMs?: number;
}

/**
 * Connects to `port`, lets `script` write (it may keep writing on a timer; it gets a stop signal when the
 * socket closes), and collects what comes back until the server closes the connection or `giveUpMs` pass.
 */
function exchange(port: number, script: (socket: Socket, stopped: () => boolean) => void, giveUpMs = CLOSED_WITHIN_MS + 2_000): Promise<RawAnswer> {
  return new Promise((resolve) => {
    const started = Date.now();
    const chunks: Buffer[] = [];
    let closed = false;
    const socket = connect(port, '127.0.0.1', () => script(socket, () => closed || socket.destroyed || !socket.writable));
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.on('error', () => {});
    const giveUp = setTimeout(() => {
      socket.destroy();
      resolve(parse(Buffer.concat(chunks).toString('latin1'), undefined));
    }, giveUpMs);
    socket.on('close', () => {
      closed = true;
      clearTimeout(giveUp);
      resolve(parse(Buffer.concat(chunks).toString('latin1'), Date.now() - started));
    });
  });
}

function parse(raw: string, closedAfterMs: number | undefined): RawAnswer {
  const end = raw.indexOf('\r\n\r\n');
  const head = end === -1 ? raw : raw.slice(0, end);
  const [statusLine = '', ...lines] = head.split('\r\n');
  const status = /^HTTP\/1\.1 (\d{3})/.exec(statusLine)?.[1];
  const headers = Object.fromEntries(
    lines.map((line) => [line.slice(0, line.indexOf(':')).trim().toLowerCase(), line.slice(line.indexOf(':') + 1).trim()]),
  );
  return {
    raw,
    ...(status ? { status: Number(status) } : {}),
    headers,
    body: end === -1 ? '' : Buffer.from(raw.slice(end + 4), 'latin1').toString('utf8'),
    ...(closedAfterMs !== undefined ? { closedAfterMs } : {}),
  };
}

/** Writes `chunk` every `everyMs` until the connection closes. */
function trickle(socket: Socket, stopped: () => boolean, chunk: string, everyMs = 100): void {
  const timer = setInterval(() => {
    if (stopped()) clearInterval(timer);
    else socket.write(chunk);
  }, everyMs);
  socket.on('close', () => clearInterval(timer));
}

/**
 * A JSON 408 sent before closing, or at least a close. The client never finishes, so a close can only come from
 * the server's bound; `exchange` stops waiting for it after the bound and its slack (that wait is the check).
 */
function assertCutOff(answer: RawAnswer, what: string): void {
  assert.ok(answer.closedAfterMs !== undefined, `${what}: the connection was still open after ${CLOSED_WITHIN_MS + 2_000} ms`);
  if (answer.raw === '') return;
  assert.equal(answer.status, 408, `${what}: ${answer.raw.slice(0, 200)}`);
  assertErrorShape({ statusCode: 408, headers: answer.headers, body: answer.body }, what);
  assert.equal(JSON.parse(answer.body).description_status, errors.requestTimeout().description);
}

const portOf = (app: FastifyInstance) => (app.server.address() as AddressInfo).port;

describe('slow, oversized and malformed requests on real listeners', () => {
  let t: TestGateway;
  /** A public app with SHORT bounds, on the same gateway. */
  let app: FastifyInstance;
  let port: number;
  before(async () => {
    t = await startTestGateway(testBackends()[0]!);
    app = await buildApp({ gateway: t.gateway, logger: pino({ level: 'silent' }), timeouts: SHORT });
    await Promise.all([app.listen({ host: '127.0.0.1', port: 0 }), t.app.listen({ host: '127.0.0.1', port: 0 }), t.admin.listen({ host: '127.0.0.1', port: 0 })]);
    port = portOf(app);
  });
  after(async () => {
    await app.close();
    await t.close();
  });

  it('cuts off headers trickling in a line at a time, a byte at a time, or never finished, with a JSON 408 within the bound', async () => {
    const [lines, bytes, silent, half] = await Promise.all([
      exchange(port, (socket, stopped) => {
        socket.write('POST /api/v1/login/ HTTP/1.1\r\nHost: gateway\r\n');
        trickle(socket, stopped, 'X-Padding: a\r\n');
      }),
      exchange(port, (socket, stopped) => {
        socket.write('POST /partner/provider/sbp/banks/?partnerName=');
        trickle(socket, stopped, 'a');
      }),
      exchange(port, () => {}),
      exchange(port, (socket) => socket.write('POST /api/v1/login/ HTTP/1.1\r\nHost: gateway\r\nContent-Type: application/json\r\n')),
    ]);
    assertCutOff(lines, 'headers a line at a time');
    assertCutOff(bytes, 'a request line a byte at a time');
    assertCutOff(silent, 'a connection that sends nothing');
    assertCutOff(half, 'headers never finished');
    assert.ok(lines.raw !== '' && bytes.raw !== '', 'a client that sent something is told why');
  });

  it('cuts off a body trickling in on login and on the banks operation with a JSON 408 within the bound', async () => {
    const slowBody = (path: string) =>
      exchange(port, (socket, stopped) => {
        socket.write(`POST ${path} HTTP/1.1\r\nHost: gateway\r\nContent-Type: application/json\r\nContent-Length: 10000\r\n\r\n{"login":"`);
        trickle(socket, stopped, 'a');
      });
    const [login, banks, stalled] = await Promise.all([
      slowBody('/api/v1/login/'),
      slowBody('/partner/provider/sbp/banks/'),
      exchange(port, (socket) => socket.write('POST /api/v1/login/ HTTP/1.1\r\nHost: gateway\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{')),
    ]);
    assertCutOff(login, 'a login body a byte at a time');
    assertCutOff(banks, 'a banks body a byte at a time');
    assertCutOff(stalled, 'a body that stops arriving');
    assert.equal(login.status, 408);
  });

  it('keeps answering other clients while slow ones are held', async () => {
    let cutOff = 0;
    const slow = Array.from({ length: 20 }, () =>
      exchange(port, (socket, stopped) => {
        socket.write('POST /api/v1/login/ HTTP/1.1\r\nHost: gateway\r\n');
        trickle(socket, stopped, 'X-Padding: a\r\n', 200);
      }).then((answer) => {
        cutOff += 1;
        return answer;
      }),
    );
    const healthy = await fetch(`http://127.0.0.1:${port}/healthz`);
    // The order of events, not a duration: healthz was answered while all 20 were still held.
    const heldWhenAnswered = 20 - cutOff;
    assert.equal(healthy.status, 200);
    assert.equal(heldWhenAnswered, 20, 'healthz answered only once a slow client was already cut off');
    for (const answer of await Promise.all(slow)) assertCutOff(answer, 'one of 20 slow clients');
  });

  it('gives the production listeners bounds Node enforces: headers within the request bound, both set at creation, checked every second', () => {
    for (const server of [t.app.server, t.admin.server]) {
      assert.equal(server.requestTimeout, REQUEST_TIMEOUTS.requestMs);
      assert.equal(server.headersTimeout, REQUEST_TIMEOUTS.headersMs);
      assert.ok(server.headersTimeout <= server.requestTimeout);
      assert.equal((server as unknown as { connectionsCheckingInterval: number }).connectionsCheckingInterval, REQUEST_TIMEOUTS.checkIntervalMs);
    }
    assert.ok(REQUEST_TIMEOUTS.requestMs + REQUEST_TIMEOUTS.checkIntervalMs <= 31_000, 'a slow client is held 31 s at most');
  });

  const send = (app: FastifyInstance, request: string | Buffer) => exchange(portOf(app), (socket) => socket.write(request));
  const headersTooLarge = errors.headersTooLarge().description;

  it('answers a header over 16 KiB, many headers over 16 KiB in all, or an oversized request line with a JSON 431, on both listeners', async () => {
    const requests = [
      `POST /api/v1/login/ HTTP/1.1\r\nHost: gateway\r\nX-Long: ${'a'.repeat(20_000)}\r\n\r\n`,
      `POST /partner/provider/sbp/banks/ HTTP/1.1\r\nHost: gateway\r\nAuthorization: Bearer ${'a'.repeat(17_000)}\r\n\r\n`,
      `POST /api/v1/login/ HTTP/1.1\r\nHost: gateway\r\n${Array.from({ length: 600 }, (_, i) => `X-Header-${i}: ${'b'.repeat(30)}\r\n`).join('')}\r\n`,
      `POST /partner/provider/sbp/banks/?partnerPassword=${'a'.repeat(20_000)} HTTP/1.1\r\nHost: gateway\r\n\r\n`,
      `GET /admin/v1/partners/${'a'.repeat(20_000)} HTTP/1.1\r\nHost: gateway\r\n\r\n`,
    ];
    for (const app of [t.app, t.admin]) {
      for (const request of requests) {
        const answer = await send(app, request);
        assert.equal(answer.status, 431, `${request.slice(0, 60)}: ${answer.raw.slice(0, 200)}`);
        assertErrorShape({ statusCode: 431, headers: answer.headers, body: answer.body }, request.slice(0, 60));
        assert.equal(JSON.parse(answer.body).description_status, headersTooLarge);
        assert.ok(answer.closedAfterMs !== undefined, 'and closes the connection');
      }
    }
  });

  it('answers requests Node cannot parse with a JSON 400, on both listeners', async () => {
    const requests: Array<string | Buffer> = [
      'GARBAGE\r\n\r\n',
      'POST /api/v1/login/ HTTP/9.9\r\n\r\n',
      'POST /api/v1/login/ HTTP/1.1\r\nHost: gateway\r\nBad Header Name: x\r\n\r\n',
      'POST /api/v1/login/ HTTP/1.1\r\nHost: gateway\r\nContent-Length: 2\r\nContent-Length: 3\r\n\r\n{}',
      'POST /api/v1/login/ HTTP/1.1\r\nHost: gateway\r\nContent-Length: -1\r\n\r\n',
      'POST /api/v1/login/ HTTP/1.1\r\nHost: gateway\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n',
      'POST /api/v1/login/ HTTP/1.1\r\nHost: gateway\r\nTransfer-Encoding: chunked\r\nContent-Length: 2\r\n\r\n0\r\n\r\n',
      Buffer.from('POST /api/v1/login/ HTTP/1.1\r\nHost: gateway\r\nX-Bad: a\x00b\r\n\r\n', 'latin1'),
    ];
    for (const app of [t.app, t.admin]) {
      for (const request of requests) {
        const what = JSON.stringify(request.toString().slice(0, 80));
        const answer = await send(app, request);
        assert.equal(answer.status, 400, `${what}: ${answer.raw.slice(0, 200)}`);
        assertErrorShape({ statusCode: 400, headers: answer.headers, body: answer.body }, what);
      }
    }
  });

  it('answers raw bytes that are not UTF-8 in the request target and in header values with JSON, never a 5xx', async () => {
    const requests = [
      Buffer.concat([Buffer.from('POST /partner/provider/sbp/banks/?partnerName='), Buffer.from([0xff, 0xfe, 0xc3, 0x28]), Buffer.from('&partnerPassword=x&useAuthByCert=Y HTTP/1.1\r\nHost: gateway\r\nConnection: close\r\n\r\n')]),
      Buffer.concat([Buffer.from('POST /partner/provider/sbp/banks/ HTTP/1.1\r\nHost: gateway\r\nConnection: close\r\nAuthorization: Bearer '), Buffer.from([0xff, 0xc0, 0xaf]), Buffer.from('\r\n\r\n')]),
      Buffer.concat([Buffer.from('POST /api/v1/login/ HTTP/1.1\r\nHost: gateway\r\nConnection: close\r\nContent-Type: application/json\r\nContent-Length: 6\r\n\r\n{"a":'), Buffer.from([0xff])]),
    ];
    for (const request of requests) {
      const answer = await send(t.app, request);
      assert.ok(answer.status !== undefined && answer.status >= 400 && answer.status < 500, `${request.toString('latin1').slice(0, 60)}: ${answer.raw.slice(0, 200)}`);
      assertErrorShape({ statusCode: answer.status, headers: answer.headers, body: answer.body }, request.toString('latin1').slice(0, 60));
    }
  });
});
