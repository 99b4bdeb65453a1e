import { createPrivateKey, randomUUID } from 'node:crypto';
import { exportJWK, exportPKCS8, generateKeyPair, type CryptoKey, type JWK } from 'jose';
import type { AuthMethod } from '@partner-gateway/contract/admin-partners';
import type { TestBackend } from './test-databases.js';
import { freePort } from './free-port.js';
import { startTestGateway, type TestGateway } from './test-gateway.js';

export type KeyAlgorithm = 'ES256' | 'EdDSA' | 'PS256';

/** A partner's own key pair, in every form a test hands to a client. */
export interface PartnerKey {
  kid: string;
  alg: KeyAlgorithm;
  privateKey: CryptoKey;
  publicKey: CryptoKey;
  /** The private JWK, with its kid and alg. */
  privateJwk: JWK;
  /** The public JWK as registered (kid, alg, `use: sig`). */
  publicJwk: JWK;
  /** PKCS#8 PEM of the private key. */
  pem: string;
}

/** A new key pair for a partner: extractable, so that tests can write it out as a JWK or a PEM. */
export async function partnerKey(alg: KeyAlgorithm = 'ES256', kid = `key-${randomUUID().slice(0, 8)}`): Promise<PartnerKey> {
  const { privateKey, publicKey } = await generateKeyPair(alg, { extractable: true });
  const publicJwk = { ...(await exportJWK(publicKey)), kid, alg, use: 'sig' };
  const privateJwk = { ...(await exportJWK(privateKey)), kid, alg };
  // PS256 keys come out of WebCrypto as RSA-PSS; a partner's PEM is usually a plain RSA PKCS#8, as openssl makes it.
  const pem = alg === 'PS256' ? (createPrivateKey({ key: privateJwk as import('node:crypto').JsonWebKey, format: 'jwk' }).export({ type: 'pkcs8', format: 'pem' }) as string) : await exportPKCS8(privateKey);
  return { kid, alg, privateKey, publicKey, privateJwk, publicJwk, pem };
}

/**
 * A partner (loopback allowlist, reward type sbp) with `key` registered through the admin service and the
 * given methods and binding policy: what issue 13's admin API sets up.
 */
export async function addKeyPartner(
  t: TestGateway,
  options: { key?: PartnerKey; methods?: AuthMethod[]; requireBound?: boolean } = {},
): Promise<{ login: string; password: string; key: PartnerKey }> {
  const key = options.key ?? (await partnerKey());
  const partner = await t.addPartner();
  await t.gateway.admin.partnerKeys.set(partner.login, { keys: [key.publicJwk as Record<string, unknown>] });
  await t.gateway.admin.partners.update(partner.login, { authMethods: options.methods ?? ['private_key_jwt'], requireSenderConstrainedTokens: options.requireBound ?? false });
  return { login: partner.login, password: partner.password, key };
}

/**
 * A test gateway listening on a loopback port chosen before it starts, with PUBLIC_URL set to that address:
 * the assertions' `aud`, the proofs' `htu` and the metadata's `issuer` are checked against it, so it must be
 * the URL the clients use.
 */
export async function startListeningGateway(
  backend: TestBackend,
  options: Parameters<typeof startTestGateway>[1] = {},
  /** The host PUBLIC_URL names: `localhost` for passkeys (WebAuthn takes no IP address); the listener is on 127.0.0.1 either way. */
  publicHost = '127.0.0.1',
): Promise<TestGateway & { url: string; publicUrl: string }> {
  for (let attempt = 1; ; attempt++) {
    const port = await freePort();
    const url = `http://127.0.0.1:${port}`;
    const publicUrl = `http://${publicHost}:${port}`;
    const t = await startTestGateway(backend, { ...options, env: { PUBLIC_URL: publicUrl, ...options.env } });
    try {
      await t.app.listen({ host: '127.0.0.1', port });
      return Object.assign(t, { url, publicUrl });
    } catch (error) {
      await t.close();
      // Taken between choosing it and listening: choose again.
      if ((error as NodeJS.ErrnoException).code !== 'EADDRINUSE' || attempt >= 5) throw error;
    }
  }
}
