const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

/** 24 characters drawn uniformly from 62 (about 143 bits) with the platform's CSPRNG. */
export const GENERATED_PASSWORD_LENGTH = 24;

export function generatePassword(length = GENERATED_PASSWORD_LENGTH): string {
  const out: string[] = [];
  const buffer = new Uint8Array(64);
  while (out.length < length) {
    globalThis.crypto.getRandomValues(buffer);
    for (const byte of buffer) {
      // 248 = 4 × 62: bytes above it are dropped so that every character is equally likely.
      if (byte < 248 && out.length < length) out.push(ALPHABET[byte % 62]!);
    }
  }
  return out.join('');
}
