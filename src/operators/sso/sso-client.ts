import { createPrivateKey } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { importJWK, importPKCS8, type JWK } from 'jose';
import * as oidc from 'openid-client';
import type { CryptoKey } from 'openid-client';

/** What the console's single sign-on needs from the identity provider: where to send the browser, and what the callback proves. */
export interface SsoClient {
  /** The identity provider's authorization URL for one sign-in (PKCE S256, state and nonce). */
  authorizationUrl(checks: { state: string; nonce: string; codeVerifier: string }): Promise<URL>;
  /**
   * Exchanges the callback's code (checking state, PKCE, the ID token's signature, issuer, audience and nonce)
   * and returns the ID token's claims, completed by the userinfo endpoint's when the role claim is not among them.
   */
  finish(callbackUrl: URL, checks: { state: string; nonce: string; codeVerifier: string }, roleClaim: string): Promise<Record<string, unknown>>;
}

export interface SsoClientSettings {
  issuer: string;
  clientId: string;
  clientSecret?: string | undefined;
  /** A PEM (PKCS#8) or JWK file of the client's private key (private_key_jwt). */
  privateKeyFile?: string | undefined;
  redirectUri: string;
  scopes: string;
}

/**
 * The OpenID Connect relying party (openid-client): authorization code with PKCE, the client authenticated
 * with its secret (client_secret_basic), its private key (private_key_jwt) or not at all (a public client).
 * The provider's metadata is discovered on first use and kept; a failed discovery is tried again next time,
 * so a gateway starting while the provider is down recovers by itself. Plain http is allowed only to a
 * loopback issuer (tests, a provider on the same host).
 */
export function createSsoClient(settings: SsoClientSettings): SsoClient {
  let configuration: Promise<oidc.Configuration> | undefined;
  const clientAuth = readClientAuth(settings);
  // A bad key file is reported by the first sign-in that needs it, not as an unhandled rejection now.
  clientAuth.catch(() => {});

  function discovered(): Promise<oidc.Configuration> {
    configuration ??= (async () => {
      const issuer = new URL(settings.issuer);
      const insecure = issuer.protocol === 'http:' && isLoopback(issuer.hostname);
      return oidc.discovery(issuer, settings.clientId, undefined, await clientAuth, {
        ...(insecure ? { execute: [oidc.allowInsecureRequests] } : {}),
        timeout: 10,
      });
    })();
    configuration.catch(() => {
      configuration = undefined;
    });
    return configuration;
  }

  return {
    async authorizationUrl({ state, nonce, codeVerifier }) {
      const config = await discovered();
      return oidc.buildAuthorizationUrl(config, {
        redirect_uri: settings.redirectUri,
        scope: scopesOf(settings.scopes),
        state,
        nonce,
        code_challenge: await oidc.calculatePKCECodeChallenge(codeVerifier),
        code_challenge_method: 'S256',
      });
    },
    async finish(callbackUrl, { state, nonce, codeVerifier }, roleClaim) {
      const config = await discovered();
      const tokens = await oidc.authorizationCodeGrant(config, callbackUrl, { pkceCodeVerifier: codeVerifier, expectedState: state, expectedNonce: nonce, idTokenExpected: true });
      const claims: Record<string, unknown> = { ...tokens.claims() };
      if (claims[roleClaim] === undefined && config.serverMetadata().userinfo_endpoint !== undefined) {
        const userInfo = await oidc.fetchUserInfo(config, tokens.access_token, String(claims.sub));
        for (const [name, value] of Object.entries(userInfo)) if (claims[name] === undefined) claims[name] = value;
      }
      return claims;
    },
  };
}

function scopesOf(configured: string): string {
  const scopes = configured.split(/\s+/).filter((scope) => scope.length > 0);
  return [...new Set(['openid', ...scopes])].join(' ');
}

function isLoopback(hostname: string): boolean {
  return hostname === 'localhost' || hostname === '[::1]' || /^127\.\d+\.\d+\.\d+$/.test(hostname);
}

async function readClientAuth(settings: SsoClientSettings): Promise<oidc.ClientAuth> {
  if (settings.clientSecret !== undefined) return oidc.ClientSecretBasic(settings.clientSecret);
  if (settings.privateKeyFile === undefined) return oidc.None();
  const text = readFileSync(settings.privateKeyFile, 'utf8');
  if (text.trimStart().startsWith('{')) {
    const jwk = JSON.parse(text) as JWK;
    const key = (await importJWK(jwk, jwk.alg ?? algorithmOf(createPrivateKey({ key: jwk as never, format: 'jwk' })))) as CryptoKey;
    return oidc.PrivateKeyJwt(jwk.kid === undefined ? key : { key, kid: jwk.kid });
  }
  const alg = algorithmOf(createPrivateKey(text));
  return oidc.PrivateKeyJwt(await importPKCS8(text, alg));
}

/** The JWS algorithm a private key signs with: RS256, ES256/384/512 by curve, or EdDSA. */
function algorithmOf(key: ReturnType<typeof createPrivateKey>): string {
  if (key.asymmetricKeyType === 'rsa') return 'RS256';
  if (key.asymmetricKeyType === 'ed25519') return 'EdDSA';
  const curve = key.asymmetricKeyDetails?.namedCurve;
  if (curve === 'prime256v1') return 'ES256';
  if (curve === 'secp384r1') return 'ES384';
  if (curve === 'secp521r1') return 'ES512';
  throw new Error(`OIDC_PRIVATE_KEY_FILE: unsupported key type ${key.asymmetricKeyType ?? 'unknown'}`);
}
