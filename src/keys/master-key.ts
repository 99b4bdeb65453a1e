import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { chmodSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export const MASTER_KEY_FILE = 'master-key';

/**
 * Parses MASTER_KEY: 32 bytes given as 64 hex characters or as base64/base64url (43 or 44 characters).
 * Returns undefined for anything else.
 */
export function parseMasterKey(text: string): Buffer | undefined {
  const value = text.trim();
  const bytes = /^[0-9a-fA-F]{64}$/.test(value) ? Buffer.from(value, 'hex') : Buffer.from(value, /[+/=]/.test(value) ? 'base64' : 'base64url');
  return bytes.length === 32 ? bytes : undefined;
}

/**
 * The key that seals private keys at rest: MASTER_KEY when set (required with DATABASE_URL); on the embedded
 * database, DATA_DIR/master-key, generated on first start with mode 0600.
 */
export function resolveMasterKey(configured: string | undefined, dataDir: string): Buffer {
  if (configured) {
    const key = parseMasterKey(configured);
    if (!key) throw new Error('MASTER_KEY must be 32 bytes, as 64 hex characters or base64');
    return key;
  }
  const file = join(dataDir, MASTER_KEY_FILE);
  try {
    const key = parseMasterKey(readFileSync(file, 'utf8'));
    if (key) return key;
  } catch {
    // Not there yet: generated below.
  }
  mkdirSync(dataDir, { recursive: true });
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
