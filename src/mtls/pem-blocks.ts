/** One `-----BEGIN <label>-----` ... `-----END <label>-----` block of a PEM text, its base64 decoded. */
export interface PemBlock {
  label: string;
  der: Buffer;
}

export interface PemContents {
  blocks: PemBlock[];
  /** True when anything but whitespace lies outside the blocks, or a block's body is not clean base64. */
  malformed: boolean;
  /** True when the text holds a private key in any PEM form, even a broken one: the caller must refuse it whole. */
  privateKey: boolean;
}

const BLOCK = /-----BEGIN ([A-Z0-9 ]{1,64})-----\r?\n([A-Za-z0-9+/=\r\n\t ]*?)-----END \1-----/g;
// Matched on the raw text, not on parsed blocks, so that a key with a damaged armour is still recognized.
const PRIVATE_KEY = /-----BEGIN [A-Z0-9 ]*PRIVATE KEY-----/;
const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

/**
 * Splits a PEM text (RFC 7468) into its blocks. Strict: a block's body must be canonical base64 (whitespace
 * aside), and any other text outside the blocks marks the whole as malformed, so that a caller expecting "one
 * certificate" can refuse a text that carries something else beside it.
 *
 * @example
 * ```ts
 * const { blocks, malformed } = readPemBlocks(readFileSync('partner.pem', 'utf8'));
 * blocks.map((block) => block.label); // ['CERTIFICATE']
 * ```
 */
export function readPemBlocks(text: string): PemContents {
  const blocks: PemBlock[] = [];
  let malformed = false;
  let last = 0;
  for (const match of text.matchAll(BLOCK)) {
    if (text.slice(last, match.index).trim() !== '') malformed = true;
    last = match.index + match[0].length;
    const body = match[2]!.replace(/\s+/g, '');
    if (!BASE64.test(body) || body.length === 0) malformed = true;
    else blocks.push({ label: match[1]!, der: Buffer.from(body, 'base64') });
  }
  if (text.slice(last).trim() !== '') malformed = true;
  return { blocks, malformed, privateKey: PRIVATE_KEY.test(text) };
}
