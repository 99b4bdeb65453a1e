import { generateKeyPairSync } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { calculateJwkThumbprint, exportJWK, generateKeyPair, type JWK } from 'jose';

/** A fresh public JWK of the given kind (and its RFC 7638 thumbprint), as a partner would register it. */
export async function partnerPublicJwk(kind: 'ES256' | 'EdDSA' | 'PS256' | 'RS1024' | 'ES384', kid: string): Promise<{ jwk: JWK; privateJwk: JWK; thumbprint: string }> {
  // jose will not make an RSA key under 2048 bits; Node's crypto will (a partner's weak key, to be refused).
  const { publicKey, privateKey } =
    kind === 'RS1024'
      ? generateKeyPairSync('rsa', { modulusLength: 1024 })
      : await generateKeyPair(kind, { extractable: true, ...(kind === 'EdDSA' ? { crv: 'Ed25519' } : {}) });
  const jwk = { ...(await exportJWK(publicKey)), kid };
  return { jwk, privateJwk: { ...(await exportJWK(privateKey)), kid }, thumbprint: await calculateJwkThumbprint(jwk, 'sha256') };
}

/** A loopback HTTP server answering every request with `body()` (a partner publishing its JWK Set). */
export async function serveJwks(body: () => { status?: number; text: string }): Promise<{ url: string; hits: () => number; close: () => Promise<void> }> {
  let hits = 0;
  const server: Server = createServer((_request, response) => {
    hits += 1;
    const { status = 200, text } = body();
    response.writeHead(status, { 'content-type': 'application/json', 'cache-control': 'max-age=600' }).end(text);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/.well-known/jwks.json`,
    hits: () => hits,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
