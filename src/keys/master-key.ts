import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { chmodSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export const MASTER_KEY_FILE = 'master-key';

const HOW_TO_MAKE_ONE = 'make one with `openssl rand -hex 32`';
/** Fewer distinct byte values than this in 32 bytes is no random key (32 random bytes have ~30). */
const MIN_DISTINCT_BYTES = 16;

/**
 * Reads MASTER_KEY strictly: exactly 64 hex characters, or the canonical base64 (44 characters with its `=`)
 * or base64url (43 characters) encoding of exactly 32 bytes, holding at least 16 distinct byte values. A
 * lenient reading accepted 64 zeros, and base64 text of the wrong length that decoded to 32 bytes anyway;
 * a key nobody generated at random seals nothing. Returns the key, or the problem naming MASTER_KEY and how
 * to make a good one.
 *
 * @example
 * ```ts
 * readMasterKey(randomBytes(32).toString('hex')); // { key: <Buffer ...> }
 * readMasterKey('0'.repeat(64)); // { problem: 'MASTER_KEY is not random ...' }
 * ```
 */
export function readMasterKey(text: string): { key: Buffer } | { problem: string } {
  const value = text.trim();
  let key: Buffer | undefined;
  if (/^[0-9a-fA-F]{64}$/.test(value)) key = Buffer.from(value, 'hex');
  else if (/^[A-Za-z0-9+/]{43}=$/.test(value) && Buffer.from(value, 'base64').toString('base64') === value) key = Buffer.from(value, 'base64');
  else if (/^[A-Za-z0-9_-]{43}$/.test(value) && Buffer.from(value, 'base64url').toString('base64url') === value) key = Buffer.from(value, 'base64url');
  if (!key || key.length !== 32) {
    return { problem: `MASTER_KEY: 64 hex characters or 44 base64 characters (32 random bytes); ${HOW_TO_MAKE_ONE}` };
  }
  const distinct = new Set(key).size;
  if (distinct < MIN_DISTINCT_BYTES) {
    return { problem: `MASTER_KEY is not random (${distinct} distinct byte values in 32 bytes): 64 hex characters or 44 base64 characters (32 random bytes); ${HOW_TO_MAKE_ONE}` };
  }
  return { key };
}

/** MASTER_KEY's bytes, or undefined when it is not a good key (see readMasterKey for why). */
export function parseMasterKey(text: string): Buffer | undefined {
  const read = readMasterKey(text);
  return 'key' in read ? read.key : undefined;
}

/**
 * The key that seals private keys at rest: MASTER_KEY when set (required with DATABASE_URL); on the embedded
 * database, DATA_DIR/master-key, generated on first start with mode 0600.
 */
export function resolveMasterKey(configured: string | undefined, dataDir: string): Buffer {
  if (configured) {
    const read = readMasterKey(configured);
    if ('problem' in read) throw new Error(read.problem);
    return read.key;
  }
  const file = join(dataDir, MASTER_KEY_FILE);
  try {
    const key = parseMasterKey(readFileSync(file, 'utf8'));
    if (key) return key;
  } catch {
    // Not there yet: generated below.
  }
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  const key = randomBytes(32);
  writeFileSync(file, `${key.toString('hex')}\n`, { mode: 0o600, flag: 'wx' });
  chmodSync(file, 0o600);
  return key;
}

/** Seals and opens private keys with AES-256-GCM; the kid is the additional data, binding each ciphertext to its row. */
export interface KeySealer {
  seal(kid: string, value: Record<string, unknown>): string;
  open(kid: string, sealed: string): Record<string, unknown>;
}

export function createKeySealer(masterKey: Buffer): KeySealer {
  return {
    seal(kid, value) {
      const iv = randomBytes(12);
      const cipher = createCipheriv('aes-256-gcm', masterKey, iv);
      cipher.setAAD(Buffer.from(kid));
      const ciphertext = Buffer.concat([cipher.update(JSON.stringify(value), 'utf8'), cipher.final()]);
      return ['v1', iv, ciphertext, cipher.getAuthTag()].map((part) => (typeof part === 'string' ? part : part.toString('base64url'))).join('.');
    },
    open(kid, sealed) {
      const [version, iv, ciphertext, tag] = sealed.split('.');
      if (version !== 'v1' || !iv || !ciphertext || !tag) throw new Error(`key ${kid}: unknown sealed format`);
      const decipher = createDecipheriv('aes-256-gcm', masterKey, Buffer.from(iv, 'base64url'));
      decipher.setAAD(Buffer.from(kid));
      decipher.setAuthTag(Buffer.from(tag, 'base64url'));
      try {
        return JSON.parse(Buffer.concat([decipher.update(Buffer.from(ciphertext, 'base64url')), decipher.final()]).toString('utf8'));
      } catch {
        throw new Error(`key ${kid} cannot be opened: MASTER_KEY is not the one it was sealed with`);
      }
    },
  };
}
