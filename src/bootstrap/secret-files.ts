import { closeSync, openSync, readSync } from 'node:fs';

/**
 * The settings that hold a secret, each of which may instead be given as a file (`<NAME>_FILE`): what Docker
 * and Kubernetes secrets mount, so that the value never sits in the environment (`ps e`, `/proc/<pid>/environ`,
 * a crash report).
 */
export const SECRET_SETTINGS = ['ADMIN_TOKEN', 'METRICS_TOKEN', 'MASTER_KEY', 'DATABASE_URL', 'REDIS_URL', 'OIDC_CLIENT_SECRET'] as const;

export type SecretSetting = (typeof SECRET_SETTINGS)[number];

/** The most a secret file may hold: every secret here is well under 1 KiB; a larger file is the wrong file. */
export const SECRET_FILE_MAX_BYTES = 16 * 1024;

/**
 * Each `<NAME>_FILE` of `env` read once: the file's text with its trailing newlines removed (`echo` and most
 * editors add one), as if it were `<NAME>`. Setting both `<NAME>` and `<NAME>_FILE` is a problem (which one
 * would win is a guess), as is a file that cannot be read, is empty, or is larger than SECRET_FILE_MAX_BYTES.
 * Problems name the setting and the path, never the content.
 *
 * @example
 * ```ts
 * readSecretFiles({ MASTER_KEY_FILE: '/run/secrets/master-key' });
 * // { values: { MASTER_KEY: '3f9a…' }, problems: [] }
 * ```
 */
export function readSecretFiles(env: Record<string, string | undefined>): { values: Partial<Record<SecretSetting, string>>; problems: string[] } {
  const values: Partial<Record<SecretSetting, string>> = {};
  const problems: string[] = [];
  for (const name of SECRET_SETTINGS) {
    const path = env[`${name}_FILE`];
    if (path === undefined || path === '') continue;
    if (env[name] !== undefined && env[name] !== '') {
      problems.push(`${name} and ${name}_FILE are both set: give one of them`);
      continue;
    }
    const read = readBounded(path);
    if ('problem' in read) problems.push(`${name}_FILE: ${path} ${read.problem}`);
    else if (read.text === '') problems.push(`${name}_FILE: ${path} is empty; it should hold ${name} alone`);
    else values[name] = read.text;
  }
  return { values, problems };
}

function readBounded(path: string): { text: string } | { problem: string } {
  let fd: number;
  try {
    fd = openSync(path, 'r');
  } catch (error) {
    return { problem: `cannot be read (${(error as NodeJS.ErrnoException).code ?? 'error'})` };
  }
  try {
    const buffer = Buffer.alloc(SECRET_FILE_MAX_BYTES + 1);
    let length = 0;
    for (let got = -1; got !== 0 && length < buffer.length; length += got) got = readSync(fd, buffer, length, buffer.length - length, null);
    if (length > SECRET_FILE_MAX_BYTES) return { problem: `is larger than ${SECRET_FILE_MAX_BYTES / 1024} KiB; it should hold the secret alone` };
    return { text: buffer.subarray(0, length).toString('utf8').replace(/[\r\n]+$/, '') };
  } catch (error) {
    return { problem: `cannot be read (${(error as NodeJS.ErrnoException).code ?? 'error'})` };
  } finally {
    closeSync(fd);
  }
}
