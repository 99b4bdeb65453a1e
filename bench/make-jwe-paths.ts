/**
 * Writes a file of banks request paths, each with a fresh partnerPassword JWE, for profiling the
 * encrypted-password path by hand: `node --import tsx bench/make-jwe-paths.ts <base URL> <login> <password> <count> <file>`.
 */
import { randomUUID } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { CompactEncrypt, importJWK, type JWK } from 'jose';

const [base, login, password, count, file] = process.argv.slice(2) as [string, string, string, string, string];
const { keys } = (await (await fetch(`${base}/.well-known/jwks.json`)).json()) as { keys: JWK[] };
const jwk = keys.filter((key) => key.use === 'enc').at(-1)!;
const key = await importJWK(jwk, 'RSA-OAEP-256');
const lines: string[] = [];
for (let i = 0; i < Number(count); i++) {
  const jwe = await new CompactEncrypt(new TextEncoder().encode(password))
    .setProtectedHeader({ alg: 'RSA-OAEP-256', enc: 'A256GCM', kid: jwk.kid!, iat: Math.floor(Date.now() / 1000) + 20, jti: randomUUID() })
    .encrypt(key);
  lines.push(`/partner/provider/sbp/banks/?partnerName=${login}&partnerPassword=${jwe}&useAuthByCert=Y`);
}
writeFileSync(file, lines.join('\n'));
