import type { JWK } from 'jose';
import { encryptPassword } from '../../test/support/encrypt-password.js';
import { writeLines } from './request-file.js';

/**
 * Writes `count` request paths to `file`, one a line, each with a fresh partnerPassword JWE (its own `jti`,
 * `iat` `iatOffsetSec` from now) encrypted to the `enc` key of the JWKS at `jwksUrl`, streamed (memory holds a
 * batch, not the file): autocannon uses each once (`singleUse`).
 */
export async function writeJwePaths(
  file: string,
  options: { jwksUrl: string; password: string; count: number; pathOf: (jwe: string) => string; iatOffsetSec?: number },
): Promise<string> {
  const jwks = (await (await fetch(options.jwksUrl)).json()) as { keys: JWK[] };
  const iat = () => Math.floor(Date.now() / 1000) + (options.iatOffsetSec ?? 0);
  await writeLines(file, options.count, async () => options.pathOf(await encryptPassword(options.password, jwks, { header: { iat: iat() } })));
  return file;
}
