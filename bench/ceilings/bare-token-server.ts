/**
 * Ceilings (d) and (e): a bare Fastify route doing only the jose work of a client-credentials grant, with the
 * same algorithms and library as the gateway: one private_key_jwt assertion verified (ES256, against the
 * partner's public key given as the first argument), one DPoP proof verified when the request carries one
 * (its embedded key, and the key's thumbprint for `cnf.jkt`), and one ES256 access token signed. No storage,
 * no replay check, no audit. Prints its URL; the token endpoint is `<url>/token`.
 */
import { randomUUID } from 'node:crypto';
import Fastify from 'fastify';
import { calculateJwkThumbprint, EmbeddedJWK, generateKeyPair, importJWK, jwtVerify, SignJWT, type JWK } from 'jose';

const ALGORITHMS = ['ES256', 'EdDSA', 'PS256'];
const partnerKey = await importJWK(JSON.parse(process.argv[2]!) as JWK, 'ES256');
const { privateKey: signingKey } = await generateKeyPair('ES256');
const app = Fastify({ logger: false });
app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_request, body, done) => done(null, Object.fromEntries(new URLSearchParams(body as string))));
let tokenUrl = '';
app.post('/token', async (request, reply) => {
  const form = request.body as Record<string, string>;
  const { payload } = await jwtVerify(form.client_assertion!, partnerKey, { algorithms: ALGORITHMS, audience: tokenUrl, requiredClaims: ['iss', 'sub', 'exp', 'jti'] });
  let jkt: string | undefined;
  const proof = request.headers.dpop;
  if (typeof proof === 'string') {
    const { protectedHeader } = await jwtVerify(proof, EmbeddedJWK, { typ: 'dpop+jwt', algorithms: ALGORITHMS, requiredClaims: ['htm', 'htu', 'iat', 'jti'] });
    jkt = await calculateJwkThumbprint(protectedHeader.jwk!);
  }
  const accessToken = await new SignJWT({ client_id: payload.sub, ...(jkt ? { cnf: { jkt } } : {}) })
    .setProtectedHeader({ alg: 'ES256', kid: 'ceiling', typ: 'at+jwt' })
    .setIssuer(tokenUrl)
    .setSubject(payload.sub!)
    .setAudience('partner-api')
    .setJti(randomUUID())
    .setIssuedAt()
    .setExpirationTime('15m')
    .sign(signingKey);
  reply.header('cache-control', 'no-store');
  return { access_token: accessToken, token_type: jkt ? 'DPoP' : 'Bearer', expires_in: 900 };
});
const address = await app.listen({ host: '127.0.0.1', port: 0 });
tokenUrl = `${address}/token`;
process.stdout.write(`${address}\n`);
