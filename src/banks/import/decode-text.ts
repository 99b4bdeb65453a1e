import { TextDecoder } from 'node:util';

/**
 * Decodes an uploaded file's bytes with the named charset (UTF-8 when none), dropping a byte-order mark.
 * Throws a message naming the charset when it is unknown or the bytes are not valid in it.
 */
export function decodeText(bytes: Uint8Array, charset = 'utf-8'): string {
  let decoder: TextDecoder;
  try {
    decoder = new TextDecoder(charset, { fatal: true, ignoreBOM: false });
  } catch {
    throw new Error(`unsupported character set ${charset}`);
  }
  try {
    return decoder.decode(bytes);
  } catch {
    throw new Error(`the file is not valid ${charset} text`);
  }
}
