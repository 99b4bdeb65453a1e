import { randomUUID } from 'node:crypto';
import { exportJWK, generateKeyPair, SignJWT, type CryptoKey, type JWK } from 'jose';
import { CLIENT_ASSERTION_TYPE_JWT_BEARER } from '@partner-gateway/contract/oauth';
import { DpopProofs } from '../../packages/client/src/dpop-proofs.js';
import type { LoadSpec } from '../load.js';
import { writeLines } from './request-file.js';

/** A partner's signing key for the bench: ES256, the gateway's most common case. */
export interface BenchKey {
  kid: string;
  privateKey: CryptoKey;
  publicJwk: JWK;
}

export async function benchKey(kid = 'bench-key-1'): Promise<BenchKey> {
  const { privateKey, publicKey } = await generateKeyPair('ES256');
  return { kid, privateKey, publicJwk: { ...(await exportJWK(publicKey)), kid, alg: 'ES256', use: 'sig' } };
}

/** A DPoP signer (a generated ES256 key pair, the SDK's own proof code) whose proofs carry `iat` `offsetSec` ahead. */
export function benchProofs(offsetSec: number): DpopProofs {
  return new DpopProofs(undefined, () => Date.now() + offsetSec * 1000);
}

/**
 * Writes `count` token requests to `file` for bench/load.ts's `requestsFile`, streamed (memory holds a
 * batch, not the file): each a client_credentials form with its own private_key_jwt assertion (a fresh
 * `jti`; `exp` 4 minutes ahead, within the 5 the gateway allows, so that assertions made before the run still
 * live at its end) and, with `proofs`, its own DPoP proof for `tokenUrl`. `audience` is the assertions' `aud`:
 * the gateway's issuer identifier (its PUBLIC_URL).
 */
export async function writeTokenRequests(
  file: string,
  options: { tokenUrl: string; audience: string; login: string; key: BenchKey; count: number; proofs?: DpopProofs },
): Promise<string> {
  await writeLines(file, options.count, async () => JSON.stringify(await tokenRequest(options)));
  return file;
}

/** One client_credentials request: its headers (with a DPoP proof when `proofs` is given) and its form body. */
export async function tokenRequest(options: { tokenUrl: string; audience: string; login: string; key: BenchKey; proofs?: DpopProofs | undefined }): Promise<{ headers: Record<string, string>; body: string }> {
  const now = Math.floor(Date.now() / 1000);
  const assertion = await new SignJWT({})
    .setProtectedHeader({ alg: 'ES256', kid: options.key.kid, typ: 'JWT' })
    .setIssuer(options.login)
    .setSubject(options.login)
    .setAudience(options.audience)
    .setJti(randomUUID())
    .setIssuedAt(now)
    .setExpirationTime(now + 240)
    .sign(options.key.privateKey);
  const body = new URLSearchParams({ grant_type: 'client_credentials', client_assertion_type: CLIENT_ASSERTION_TYPE_JWT_BEARER, client_assertion: assertion }).toString();
  const headers: Record<string, string> = { 'content-type': 'application/x-www-form-urlencoded' };
  if (options.proofs) headers.dpop = await options.proofs.proof({ htm: 'POST', url: new URL(options.tokenUrl) });
  return { headers, body };
}

/**
 * Writes `count` banks requests presenting the DPoP-bound `accessToken`, each with its own proof (new `jti`,
 * `ath`), streamed to `file`; a line holds the proof alone, the token going once into the spec's headers.
 * Answers what to spread into the LoadSpec: the file, the Authorization header, and `singleUse` (a proof
 * sent twice is refused, so the run ends when they are spent).
 */
export async function writeDpopBanksRequests(
  file: string,
  options: { banksUrl: string; accessToken: string; proofs: DpopProofs; count: number },
): Promise<Required<Pick<LoadSpec, 'requestsFile' | 'headers' | 'singleUse'>>> {
  const url = new URL(options.banksUrl);
  await writeLines(file, options.count, async () => JSON.stringify({ headers: { dpop: await options.proofs.proof({ htm: 'POST', url, accessToken: options.accessToken }) } }));
  return { requestsFile: file, headers: { authorization: `DPoP ${options.accessToken}` }, singleUse: true };
}
