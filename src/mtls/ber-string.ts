/** The ASN.1 string types a name's value may be written in as a BER hex string, and how each is read. */
const STRING_TAGS = new Map<number, (bytes: Buffer) => string>([
  [0x0c, (bytes) => new TextDecoder('utf-8', { fatal: true }).decode(bytes)], // UTF8String
  [0x12, (bytes) => bytes.toString('latin1')], // NumericString
  [0x13, (bytes) => bytes.toString('latin1')], // PrintableString
  [0x14, (bytes) => bytes.toString('latin1')], // TeletexString, read as ISO 8859-1 as OpenSSL does
  [0x16, (bytes) => bytes.toString('latin1')], // IA5String
  [0x1e, (bytes) => new TextDecoder('utf-16be', { fatal: true }).decode(bytes)], // BMPString
]);

/**
 * Decodes the BER encoding of a string-typed attribute value (RFC 4514 section 2.4's `#04...` form): one
 * primitive string, definite length, nothing after it. Undefined for anything else, which the caller then
 * keeps as bytes and compares exactly, so that an odd encoding can never match a name it does not spell.
 *
 * @example
 * ```ts
 * decodeBerString(Buffer.from('0c03616263', 'hex')); // 'abc'
 * ```
 */
export function decodeBerString(ber: Buffer): string | undefined {
  if (ber.length < 2) return undefined;
  const read = STRING_TAGS.get(ber[0]!);
  if (read === undefined) return undefined;
  let length = ber[1]!;
  let start = 2;
  if (length & 0x80) {
    const size = length & 0x7f;
    if (size === 0 || size > 2 || ber.length < 2 + size) return undefined;
    length = size === 1 ? ber[2]! : ber.readUInt16BE(2);
    start = 2 + size;
  }
  if (start + length !== ber.length) return undefined;
  try {
    return read(ber.subarray(start));
  } catch {
    return undefined;
  }
}
