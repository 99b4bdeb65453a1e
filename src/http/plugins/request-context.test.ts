import assert from 'node:assert/strict';
import { connect, type Socket } from 'node:net';
import { describe, it } from 'node:test';
import Fastify from 'fastify';
import { pino } from 'pino';
import { fastifyOptions } from '../app.js';
import { requestContext } from './request-context.js';
import { errorHandler } from './error-handler.js';

/** Everything a raw connection receives until the server closes it. */
function received(socket: Socket): Promise<string> {
  let text = '';
  socket.on('data', (chunk) => (text += String(chunk)));
  return new Promise((resolve) => socket.on('close', () => resolve(text)));
}

async function opened(port: number): Promise<Socket> {
  const socket = connect(port, '127.0.0.1');
  await new Promise((resolve, reject) => socket.once('connect', resolve).once('error', reject));
  return socket;
}

describe('the request context plugin, on shutdown', () => {
  it('when a request arrives during shutdown, then it is answered 503 shutting_down while one in flight finishes and ends its connection, and nothing is accepted after', async () => {
    const app = Fastify(fastifyOptions(pino({ level: 'silent' }), 1024));
    await app.register(errorHandler, { validation: 'parameter' });
    await app.register(requestContext, { baseUrl: 'http://127.0.0.1', auditTrail: { full: () => false } });
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    let started!: () => void;
    const inFlight = new Promise<void>((resolve) => (started = resolve));
    app.get('/slow', async () => {
      started();
      await released;
      return { finished: true };
    });
    app.get('/quick', async () => ({ quick: true }));
    let closing!: () => void;
    const closingStarted = new Promise<void>((resolve) => (closing = resolve));
    // Registered after the plugin's own, so it runs once that one has.
    app.addHook('preClose', async () => closing());
    await app.listen({ host: '127.0.0.1', port: 0 });
    const { port } = app.server.address() as { port: number };

    const slow = await opened(port);
    const slowAnswer = received(slow);
    slow.write('GET /slow HTTP/1.1\r\nHost: gateway\r\n\r\n');
    await inFlight;
    // A balancer's request half-sent when the shutdown begins: its connection is busy, so it stays open.
    const late = await opened(port);
    const lateAnswer = received(late);
    late.write('GET /quick HTTP/1.1\r\nHost: gateway\r\n');

    const closed = app.close();
    await closingStarted;
    late.write('\r\n');
    const refused = await lateAnswer;
    assert.match(refused, /^HTTP\/1\.1 503 /);
    assert.match(refused, /\r\nconnection: close\r\n/i);
    assert.match(refused, /\r\nretry-after: 1\r\n/i);
    assert.equal(JSON.parse(refused.slice(refused.indexOf('\r\n\r\n') + 4)).description_status, 'Service is restarting; repeat the request later');

    release();
    const finished = await slowAnswer;
    assert.match(finished, /^HTTP\/1\.1 200 /);
    assert.ok(finished.endsWith('{"finished":true}'), finished);
    assert.match(finished, /\r\nconnection: close\r\n/i, 'the answer finished during the shutdown ends its connection, which would otherwise hold the close for the keep-alive timeout');
    await closed;
    await assert.rejects(opened(port), /ECONNREFUSED/);
  });
});
