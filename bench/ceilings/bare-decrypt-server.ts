/**
 * Ceiling (b): a bare route that only decrypts the partnerPassword JWE of its query string with an
 * RSA-OAEP-256 key (the same algorithm, key size and library as the gateway), and answers 200. Its public key
 * is at /jwks for the load generator to encrypt to.
 */
import Fastify from 'fastify';
import { compactDecrypt, exportJWK, generateKeyPair } from 'jose';

const { publicKey, privateKey } = await generateKeyPair('RSA-OAEP-256', { modulusLength: 2048, extractable: true });
const jwk = { ...(await exportJWK(publicKey)), kid: 'ceiling', use: 'enc', alg: 'RSA-OAEP-256' };
const app = Fastify({ logger: false });
app.get('/jwks', async () => ({ keys: [jwk] }));
app.post('/decrypt', async (request) => {
  const { partnerPassword } = request.query as { partnerPassword: string };
  await compactDecrypt(partnerPassword, privateKey, { keyManagementAlgorithms: ['RSA-OAEP-256'], contentEncryptionAlgorithms: ['A256GCM'] });
  return { ok: true };
});
const address = await app.listen({ host: '127.0.0.1', port: 0 });
process.stdout.write(`${address}\n`);
