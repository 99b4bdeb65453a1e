/**
 * Ceiling (a): a bare Fastify route answering the same pre-serialized bank-list bytes, with no
 * authentication, no database and no logging: what this machine can serve at best.
 */
import { readFileSync } from 'node:fs';
import Fastify from 'fastify';

const seed = JSON.parse(readFileSync(new URL('../../seeds/sbp-banks.json', import.meta.url), 'utf8')) as { banks: Array<{ name: string; bic: string }> };
const body = Buffer.from(JSON.stringify({ banks: seed.banks.map(({ name, bic }) => ({ name, bic })) }));
const app = Fastify({ logger: false });
app.removeAllContentTypeParsers();
app.addContentTypeParser('*', (_request, _payload, done) => done(null, undefined));
app.post('/banks', async (_request, reply) => reply.type('application/json; charset=utf-8').send(body));
const address = await app.listen({ host: '127.0.0.1', port: 0 });
process.stdout.write(`${address}\n`);
