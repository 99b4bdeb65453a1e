import { attributeType } from './attribute-types.js';
import { decodeBerString } from './ber-string.js';
import { normalizeAttributeValue } from './normalize-attribute-value.js';

/** One `type=value` of a distinguished name, its type resolved to an OID and its escapes decoded. */
export interface DnAttribute {
  /** The attribute type's OID: `CN`, `commonName` and `2.5.4.3` are one type. */
  oid: string;
  /** The name it is printed with: OpenSSL's short name, else the OID. */
  shortName: string;
  /** The value as the name carries it, escapes decoded (`Acme, Inc.` for `Acme\, Inc.`). */
  value: string;
  /** Set when the value was a BER hex string (`#04...`) that is not a string type: `value` is then its hex. */
  binary?: true;
}

/**
 * A distinguished name as RFC 4514 writes it: `rdns[0]` is the least significant RDN (`CN=...`), the last is
 * the most significant (`C=...`); each RDN is one attribute or several joined by `+`.
 */
export interface DistinguishedName {
  rdns: DnAttribute[][];
}

/** A string that is not a distinguished name; the message says where and why (it never holds a secret). */
export class DistinguishedNameError extends Error {
  override name = 'DistinguishedNameError';
}

/**
 * Parses an RFC 4514 distinguished name (`CN=Partner One,O=Acme\, Inc.,C=RU`). Attribute types are read
 * case-insensitively, by short name, long name or OID; `\,`-style and `\2C`-style escapes and `#` BER hex values
 * are decoded. It is lenient only where leniency cannot change a comparison: unescaped spaces around `=`, `,` and
 * `+` are ignored (admins paste OpenSSL's `CN = x, O = y`), since leading and trailing spaces are insignificant.
 *
 * @example
 * ```ts
 * const dn = parseDistinguishedName('cn=Partner One + UID=42, O=Acme\\, Inc., c=RU');
 * formatDistinguishedName(dn); // 'CN=Partner One+UID=42,O=Acme\\, Inc.,C=RU'
 * ```
 */
export function parseDistinguishedName(text: string): DistinguishedName {
  const reader = new Reader(text);
  const rdns: DnAttribute[][] = [];
  reader.skipSpaces();
  if (reader.done()) return { rdns };
  let rdn: DnAttribute[] = [];
  for (;;) {
    rdn.push(readAttribute(reader));
    reader.skipSpaces();
    if (reader.done()) break;
    const separator = reader.next();
    if (separator === ',') {
      rdns.push(rdn);
      rdn = [];
    } else if (separator !== '+') {
      throw reader.error(`expected "," or "+" but found ${JSON.stringify(separator)}`);
    }
  }
  rdns.push(rdn);
  return { rdns };
}

/**
 * True when two names are the same name under RFC 4517's distinguishedNameMatch: the same number of RDNs in the
 * same order, each holding the same attributes in any order, values compared by their type's rule (RFC 4518:
 * insignificant spaces, and case for the directory-string types; see `normalizeAttributeValue`).
 *
 * @example
 * ```ts
 * sameDistinguishedName(parseDistinguishedName('CN=a  b,O=X'), parseDistinguishedName('cn=A B, o=x')); // true
 * ```
 */
export function sameDistinguishedName(a: DistinguishedName, b: DistinguishedName): boolean {
  if (a.rdns.length !== b.rdns.length) return false;
  return a.rdns.every((rdn, index) => {
    const other = b.rdns[index]!;
    if (rdn.length !== other.length) return false;
    const left = rdn.map(comparisonKey).sort();
    const right = other.map(comparisonKey).sort();
    return left.every((key, at) => key === right[at]);
  });
}

/**
 * Writes a name back as an RFC 4514 string with short names, escaping what must be escaped; parsing the result
 * gives the same name. Used to store and show a normalized subject.
 */
export function formatDistinguishedName(dn: DistinguishedName): string {
  return dn.rdns
    .map((rdn) => rdn.map((attribute) => `${attribute.shortName}=${attribute.binary ? `#${attribute.value}` : escapeValue(attribute.value)}`).join('+'))
    .join(',');
}

/**
 * Reads the text node's `X509Certificate.subject` and `.issuer` give: one RDN a line, most significant first,
 * `+` between the attributes of a multi-valued RDN, values escaped as RFC 2253 (OpenSSL's `ESC_2253|ESC_CTRL`,
 * so no value holds a raw newline). The lines are reversed into RFC 4514 order and parsed as such.
 *
 * @example
 * ```ts
 * formatDistinguishedName(fromX509Name('C=RU\nO=Acme\nCN=partner-one')); // 'CN=partner-one,O=Acme,C=RU'
 * ```
 */
export function fromX509Name(text: string): DistinguishedName {
  return parseDistinguishedName(text.split('\n').filter((line) => line.length > 0).reverse().join(','));
}

function comparisonKey(attribute: DnAttribute): string {
  const caseIgnore = attributeType(attribute.oid)?.caseIgnore ?? false;
  const value = attribute.binary ? `#${attribute.value}` : `"${normalizeAttributeValue(attribute.value, caseIgnore)}`;
  return `${attribute.oid}=${value}`;
}

function readAttribute(reader: Reader): DnAttribute {
  reader.skipSpaces();
  const name = reader.match(/(?:oid\.)?\d[\d.]*|[A-Za-z][A-Za-z0-9-]*/iy);
  if (name === undefined) throw reader.error('expected an attribute type such as CN or 2.5.4.3');
  const type = attributeType(name);
  if (type === undefined) throw reader.error(`unknown attribute type ${JSON.stringify(name)}; write it as its OID (e.g. 2.5.4.3)`, -name.length);
  reader.skipSpaces();
  if (reader.next() !== '=') throw reader.error(`expected "=" after ${name}`, -1);
  reader.skipSpaces();
  const hex = reader.match(/#(?:[0-9a-fA-F]{2})+(?=\s*(?:[,+]|$))/y);
  if (hex !== undefined) {
    const decoded = decodeBerString(Buffer.from(hex.slice(1), 'hex'));
    return decoded === undefined
      ? { oid: type.oid, shortName: type.shortName, value: hex.slice(1).toLowerCase(), binary: true }
      : { oid: type.oid, shortName: type.shortName, value: decoded };
  }
  return { oid: type.oid, shortName: type.shortName, value: readStringValue(reader) };
}

const SPECIAL = new Set([' ', '"', '#', '+', ',', ';', '<', '=', '>', '\\']);
const MUST_ESCAPE = new Set(['"', ';', '<', '>', '\0']);

/** Reads a value up to an unescaped `,` or `+`: escapes give bytes, decoded as UTF-8; trailing raw spaces dropped. */
function readStringValue(reader: Reader): string {
  const bytes: number[] = [];
  let significant = 0;
  while (!reader.done() && reader.peek() !== ',' && reader.peek() !== '+') {
    const char = reader.next();
    if (char === '\\') {
      const pair = reader.match(/[0-9a-fA-F]{2}/y);
      if (pair !== undefined) bytes.push(Number.parseInt(pair, 16));
      else if (!reader.done() && SPECIAL.has(reader.peek())) bytes.push(reader.next().charCodeAt(0));
      else throw reader.error('"\\" must be followed by a special character or two hex digits', -1);
      significant = bytes.length;
    } else if (MUST_ESCAPE.has(char)) {
      throw reader.error(`${JSON.stringify(char)} must be escaped in a value`, -1);
    } else {
      bytes.push(...Buffer.from(char, 'utf8'));
      if (char !== ' ') significant = bytes.length;
    }
  }
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(Uint8Array.from(bytes.slice(0, significant)));
  } catch {
    throw reader.error('a value\'s hex escapes are not UTF-8');
  }
}

function escapeValue(value: string): string {
  let out = '';
  const chars = [...value];
  chars.forEach((char, index) => {
    const edge = (index === 0 && (char === ' ' || char === '#')) || (index === chars.length - 1 && char === ' ');
    if (edge || '"+,;<>\\'.includes(char)) out += `\\${char}`;
    else if (char.charCodeAt(0) < 0x20 || char === '\x7f') out += `\\${char.charCodeAt(0).toString(16).padStart(2, '0').toUpperCase()}`;
    else out += char;
  });
  return out;
}

class Reader {
  private at = 0;
  constructor(private readonly text: string) {}
  done(): boolean {
    return this.at >= this.text.length;
  }
  /** The next character, or '' at the end (a name cut short, such as "CN", is refused by the caller, not thrown as a RangeError). */
  peek(): string {
    const code = this.text.codePointAt(this.at);
    return code === undefined ? '' : String.fromCodePoint(code);
  }
  next(): string {
    const char = this.peek();
    this.at += char.length;
    return char;
  }
  skipSpaces(): void {
    while (this.text[this.at] === ' ') this.at += 1;
  }
  match(pattern: RegExp): string | undefined {
    pattern.lastIndex = this.at;
    const found = pattern.exec(this.text)?.[0];
    if (found !== undefined) this.at += found.length;
    return found;
  }
  error(message: string, offset = 0): DistinguishedNameError {
    return new DistinguishedNameError(`not a distinguished name at character ${this.at + offset + 1}: ${message}`);
  }
}
