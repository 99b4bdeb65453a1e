import { statSync } from 'node:fs';
import { join } from 'node:path';
import { ADMIN_TOKEN_FILE } from './admin-token.js';
import { MASTER_KEY_FILE } from '../keys/master-key.js';

/** A secret at rest that users other than the gateway's own may read. */
export interface ExposedSecret {
  path: string;
  /** The permission bits, as `ls -l` would print them in octal (e.g. `0644`). */
  mode: string;
}

/**
 * DATA_DIR, DATA_DIR/admin-token and DATA_DIR/master-key when they exist and group or others may read (or
 * enter) them. The gateway creates them 0700/0600 (umask 077, see src/main.ts), but a directory made by an
 * older version, by hand or by a volume mount keeps its mode, and the embedded database's files hold every
 * partner's password hash: start says so rather than using them without a word. Nothing is changed: the
 * operator may have reasons (a group-readable backup, say), and silently chmod-ing their files is not ours.
 *
 * @example
 * ```ts
 * for (const { path, mode } of exposedSecrets('./data')) logger.warn({ path, mode }, 'readable by others');
 * ```
 */
export function exposedSecrets(dataDir: string): ExposedSecret[] {
  const exposed: ExposedSecret[] = [];
  for (const path of [dataDir, join(dataDir, ADMIN_TOKEN_FILE), join(dataDir, MASTER_KEY_FILE)]) {
    let mode: number;
    try {
      mode = statSync(path).mode & 0o777;
    } catch {
      continue;
    }
    if ((mode & 0o077) !== 0) exposed.push({ path, mode: `0${mode.toString(8)}` });
  }
  return exposed;
}
