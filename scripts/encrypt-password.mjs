#!/usr/bin/env node
/**
 * Encrypts a partner API password into the partnerPassword JWE the banks operation expects, and prints it.
 * The password is read from standard input (never from the command line, where `ps` would show it).
 *
 * Usage:
 *   printf '%s' "$PASSWORD" | node scripts/encrypt-password.mjs http://127.0.0.1:8080/.well-known/jwks.json
 *
 * What it does, step by step (any language can do the same):
 *   1. fetch the JWKS and take a key with "use": "enc" and "alg": "RSA-OAEP-256";
 *   2. build the protected header {"alg":"RSA-OAEP-256","enc":"A256GCM","kid":<its kid>,
 *      "iat":<now, integer seconds>,"jti":<a fresh random id>};
 *   3. encrypt the UTF-8 password as a compact JWE (five base64url parts joined by dots).
 * The JWE is accepted once, while its iat lies between 120 seconds in the past and 30 in the future
 * (JWE_MAX_AGE, JWE_MAX_FUTURE).
 */
import { encryptPassword } from '@partner-gateway/client';

const jwksUrl = process.argv[2];
if (!jwksUrl) {
  process.stderr.write('usage: printf %s "$PASSWORD" | node scripts/encrypt-password.mjs <JWKS URL>\n');
  process.exit(2);
}
const chunks = [];
for await (const chunk of process.stdin) chunks.push(chunk);
const password = Buffer.concat(chunks).toString('utf8').replace(/\r?\n$/, '');
if (!password) {
  process.stderr.write('no password on standard input\n');
  process.exit(2);
}
const response = await fetch(jwksUrl).catch((error) => {
  process.stderr.write(`cannot fetch ${jwksUrl}: ${error.cause?.code ?? error.message}\n`);
  process.exit(1);
});
if (!response.ok) {
  process.stderr.write(`cannot fetch ${jwksUrl}: HTTP ${response.status}\n`);
  process.exit(1);
}
const { keys } = await response.json();
const jwk = keys.find((key) => key.use === 'enc' && key.alg === 'RSA-OAEP-256');
if (!jwk) {
  process.stderr.write('the JWKS has no RSA-OAEP-256 encryption key\n');
  process.exit(1);
}
// The SDK's builder: the same header and encryption the client sends.
const jwe = await encryptPassword(password, jwk);
process.stdout.write(`${jwe}\n`);
