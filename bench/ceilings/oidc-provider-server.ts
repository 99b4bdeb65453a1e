/**
 * The reference OAuth server for the token comparison (issue 35): node-oidc-provider (the dev dependency, the
 * major the SSO tests use) with its in-memory adapter, in production mode, one client `bench-key` that
 * authenticates by private_key_jwt (ES256, the public JWK given as the first argument) and may use the
 * client_credentials grant; DPoP is on (its default), nonces not required. Its access tokens are its default
 * for client credentials: opaque, stored in the in-memory adapter, signed by nothing (the gateway's are ES256
 * JWTs it stores nothing for). It signs nothing per token; it verifies the assertion (and the DPoP proof) with
 * jose, as the gateway does. Prints its issuer URL; the token endpoint is `<url>/token`.
 */
import { generateKeyPairSync } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import Provider from 'oidc-provider';

const clientJwk = JSON.parse(process.argv[2]!) as Record<string, string>;
// A signing key of its own, so that production mode does not refuse its development keys (unused for these tokens).
const signingJwk = generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey.export({ format: 'jwk' });

// The issuer must be known before listening: a port chosen first, then the provider built for it.
const { createServer } = await import('node:http');
const probe = createServer();
await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
const { port } = probe.address() as AddressInfo;
await new Promise<void>((resolve) => probe.close(() => resolve()));

const issuer = `http://127.0.0.1:${port}`;
const provider = new Provider(issuer, {
  clients: [
    {
      client_id: 'bench-key',
      grant_types: ['client_credentials'],
      response_types: [],
      redirect_uris: [],
      token_endpoint_auth_method: 'private_key_jwt',
      token_endpoint_auth_signing_alg: 'ES256',
      // Its only signing key is ES256 (the default, RS256, would need an RSA key it never uses here).
      id_token_signed_response_alg: 'ES256',
      jwks: { keys: [clientJwk] },
    },
  ],
  clientAuthMethods: ['private_key_jwt'],
  features: { clientCredentials: { enabled: true }, devInteractions: { enabled: false } },
  jwks: { keys: [{ ...signingJwk, kid: 'reference-signing', alg: 'ES256', use: 'sig' }] },
  cookies: { keys: ['a-cookie-key-for-the-reference-provider'] },
});
// Its own warnings (the in-memory adapter in production) are not the bench's concern.
provider.on('server_error', (_context, error) => process.stderr.write(`oidc-provider: ${String(error)}\n`));
provider.listen(port, '127.0.0.1');
process.stdout.write(`${issuer}\n`);
