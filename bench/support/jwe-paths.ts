import { writeFileSync } from 'node:fs';
import type { JWK } from 'jose';
import { encryptPassword } from '../../test/support/encrypt-password.js';

/**
 * Writes `count` request paths to `file`, one a line, each with a fresh partnerPassword JWE (its own `jti`,
 * `iat` `iatOffsetSec` from now) encrypted to the `enc` key of the JWKS at `jwksUrl`: autocannon uses each once.
 */
export async function writeJwePaths(
  file: string,
  options: { jwksUrl: string; password: string; count: number; pathOf: (jwe: string) => string; iatOffsetSec?: number },
): Promise<string> {
  const jwks = (await (await fetch(options.jwksUrl)).json()) as { keys: JWK[] };
  const iat = () => Math.floor(Date.now() / 1000) + (options.iatOffsetSec ?? 0);
  const lines: string[] = [];
  for (let i = 0; i < options.count; i++) lines.push(options.pathOf(await encryptPassword(options.password, jwks, { header: { iat: iat() } })));
  writeFileSync(file, lines.join('\n'));
  return file;
}
