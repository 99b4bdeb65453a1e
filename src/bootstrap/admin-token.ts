import { randomBytes } from 'node:crypto';
import { chmodSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export const ADMIN_TOKEN_FILE = 'admin-token';

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
