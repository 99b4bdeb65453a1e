import { randomBytes } from 'node:crypto';
import { chmodSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export const ADMIN_TOKEN_FILE = 'admin-token';

/**
 * The least an ADMIN_TOKEN must carry: 128 bits as estimated from its own characters (their number times the
 * Shannon entropy of their frequencies). `openssl rand -hex 32` gives some 230, `openssl rand -hex 24` at least
 * 150, `randomBytes(32).toString('base64url')` some 200; `"a" × 32` gives 0 and a sentence of 32 letters about 110.
 * An estimate only: it stops the tokens a person makes up, not every guessable one.
 */
const MIN_ADMIN_TOKEN_BITS = 128;

/**
 * Why ADMIN_TOKEN cannot be the bootstrap credential (which holds every right), or undefined when it can: it must
 * look random, as MASTER_KEY must. Checked at start in every environment (the sandbox's admin listener is a
 * credential like production's); the message names the setting and how to make a good one, never the value.
 *
 * @example
 * ```ts
 * adminTokenProblem('a'.repeat(32)); // 'ADMIN_TOKEN is not random (about 0 bits ...); make one with `openssl rand -hex 32`'
 * adminTokenProblem(randomBytes(32).toString('hex')); // undefined
 * ```
 */
export function adminTokenProblem(token: string): string | undefined {
  const bits = estimatedBits(token);
  if (bits >= MIN_ADMIN_TOKEN_BITS) return undefined;
  return `ADMIN_TOKEN is not random (about ${Math.floor(bits)} bits in its ${token.length} characters, at least ${MIN_ADMIN_TOKEN_BITS} needed); make one with \`openssl rand -hex 32\` (64 hex characters)`;
}

function estimatedBits(text: string): number {
  const counts = new Map<string, number>();
  for (const character of text) counts.set(character, (counts.get(character) ?? 0) + 1);
  const length = [...counts.values()].reduce((sum, count) => sum + count, 0);
  let perCharacter = 0;
  for (const count of counts.values()) perCharacter -= (count / length) * Math.log2(count / length);
  return perCharacter * length;
}

/**
 * The admin token in force: ADMIN_TOKEN when set; otherwise (embedded database only, the configuration
 * requires ADMIN_TOKEN with DATABASE_URL) the one in DATA_DIR/admin-token, generated on first start with
 * mode 0600 so that only the gateway's own user can read it.
 */
export function resolveAdminToken(configured: string | undefined, dataDir: string): { token: string; file?: string; generated: boolean } {
  if (configured) return { token: configured, generated: false };
  const file = join(dataDir, ADMIN_TOKEN_FILE);
  try {
    const existing = readFileSync(file, 'utf8').trim();
    if (existing.length >= 32) return { token: existing, file, generated: false };
  } catch {
    // No token yet: generate one below.
  }
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  const token = randomBytes(32).toString('base64url');
  writeFileSync(file, `${token}\n`, { mode: 0o600 });
  chmodSync(file, 0o600);
  return { token, file, generated: true };
}

/**
 * The credential the CLI sends, first found of: an operator's personal token in PARTNER_GATEWAY_ADMIN_TOKEN, or in
 * the file PARTNER_GATEWAY_ADMIN_TOKEN_FILE names (a secret manager's mount, a file of mode 0600); else the bootstrap
 * ADMIN_TOKEN, else DATA_DIR/admin-token (what scripts written before personal tokens use, unchanged).
 */
export function readAdminToken(env: Record<string, string | undefined>): string | undefined {
  if (env.PARTNER_GATEWAY_ADMIN_TOKEN) return env.PARTNER_GATEWAY_ADMIN_TOKEN.trim();
  if (env.PARTNER_GATEWAY_ADMIN_TOKEN_FILE) return readFileSync(env.PARTNER_GATEWAY_ADMIN_TOKEN_FILE, 'utf8').trim() || undefined;
  if (env.ADMIN_TOKEN) return env.ADMIN_TOKEN;
  try {
    return readFileSync(join(env.DATA_DIR || './data', ADMIN_TOKEN_FILE), 'utf8').trim() || undefined;
  } catch {
    return undefined;
  }
}
