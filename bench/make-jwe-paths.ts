/**
 * Writes a file of banks request paths, each with a fresh partnerPassword JWE, for profiling the
 * encrypted-password path by hand: `node --import tsx bench/make-jwe-paths.ts <base URL> <login> <password> <count> <file>`.
 */
import { writeJwePaths } from './support/jwe-paths.js';

const [base, login, password, count, file] = process.argv.slice(2) as [string, string, string, string, string];
await writeJwePaths(file, {
  jwksUrl: `${base}/.well-known/jwks.json`,
  password,
  count: Number(count),
  iatOffsetSec: 20,
  pathOf: (jwe) => `/partner/provider/sbp/banks/?partnerName=${login}&partnerPassword=${jwe}&useAuthByCert=Y`,
});
