/**
 * Writes a file of banks request paths, each with a fresh partnerPassword JWE, for profiling the
 * encrypted-password path by hand: `node --import tsx bench/make-jwe-paths.ts <base URL> <login> <password> <count> <file>`.
 */
import { writeFileSync } from 'node:fs';
import { encryptPassword } from '@partner-gateway/client';
import { importJWK, type JWK } from 'jose';

const [base, login, password, count, file] = process.argv.slice(2) as [string, string, string, string, string];
const { keys } = (await (await fetch(`${base}/.well-known/jwks.json`)).json()) as { keys: JWK[] };
const jwk = keys.filter((key) => key.use === 'enc').at(-1)!;
const key = await importJWK(jwk, 'RSA-OAEP-256');
const lines: string[] = [];
for (let i = 0; i < Number(count); i++) {
  const jwe = await encryptPassword(password, { kid: jwk.kid!, key }, { now: () => Date.now() + 20_000 });
  lines.push(`/partner/provider/sbp/banks/?partnerName=${login}&partnerPassword=${jwe}&useAuthByCert=Y`);
}
writeFileSync(file, lines.join('\n'));
