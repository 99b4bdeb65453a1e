import type { ErrorDetail } from '../errors.js';
import ipaddr from 'ipaddr.js';

/**
 * Parses an allowlist entry: a CIDR (`10.0.0.0/24`, `2001:db8::/32`) or a single address, which becomes a
 * /32 or /128. Returns the normalized CIDR, or an error message naming what is wrong. Entries with host
 * bits set (`10.0.0.5/24`) are refused rather than silently widened, since they are usually typos.
 */
export function normalizeCidr(entry: string): { cidr: string } | { error: string } {
  const text = entry.trim();
  if (text.includes('%')) return { error: `${text}: ${NO_ZONE}` };
  try {
    const [address, prefix] = text.includes('/') ? ipaddr.parseCIDR(text) : single(text);
    if (!readsAsWritten(text.split('/')[0] ?? '', address)) return { error: `${text}: ${FOUR_DECIMALS}` };
    if (isIpv4Compatible(text)) {
      return { error: `${text}: ${NO_COMPATIBLE}` };
    }
    const network = networkAddress(address, prefix);
    if (network.toNormalizedString() !== address.toNormalizedString()) {
      return { error: `${text} has host bits set; did you mean ${network.toString()}/${prefix}?` };
    }
    return { cidr: `${address.toString()}/${prefix}` };
  } catch {
    return { error: `${text} is not an IPv4 or IPv6 address or CIDR` };
  }
}

// ipaddr.js also reads the legacy inet_aton forms of IPv4: `010.0.0.1` as octal (8.0.0.1), `0x0a.0.0.1` as
// hex, `167772161` and `10.1` as short forms. An operator who writes one of them almost certainly means
// another address than the one that would be stored, and an allowlist that silently lets in a different
// address is a security hole. So an IPv4 address, alone or at the end of an IPv6 one, is accepted only as
// four decimal numbers without leading zeros, the one form that every reader understands alike.
const FOUR_DECIMALS = 'write IPv4 addresses as four decimal numbers without leading zeros, such as 10.0.0.1';

// `::10.0.0.1` is the IPv4-compatible IPv6 form, deprecated since RFC 4291: no host has such an address, and
// readers disagree on whether it means 10.0.0.1. A zone id (`fe80::1%eth0`) names an interface of the machine
// that wrote it, which means nothing here. Both are refused wherever an address is read, rather than guessed at.
const NO_COMPATIBLE = 'the IPv4-compatible IPv6 form (::a.b.c.d) is deprecated; write the IPv4 address itself, such as 10.0.0.1';
const NO_ZONE = 'zone ids (%...) are not accepted in addresses';

/**
 * True for an IPv6 address in ::/96 other than :: and ::1: the deprecated IPv4-compatible range. `text` is
 * looked at as written, because ipaddr.js reads `::10.0.0.1` as if it were `::ffff:10.0.0.1` (IPv4-mapped),
 * which is how such an address came to match 10.0.0.0/8.
 */
function isIpv4Compatible(text: string): boolean {
  const written = text.split('/')[0] ?? '';
  if (!written.includes(':')) return false;
  const tail = written.slice(written.lastIndexOf(':') + 1);
  let hex = written;
  if (tail.includes('.')) {
    const octets = tail.split('.').map(Number);
    if (octets.length !== 4 || octets.some((octet) => !(octet >= 0 && octet <= 255))) return false;
    const [a = 0, b = 0, c = 0, d = 0] = octets;
    hex = `${written.slice(0, written.lastIndexOf(':') + 1)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  if (!ipaddr.IPv6.isValid(hex)) return false;
  const parts = ipaddr.IPv6.parse(hex).parts;
  if (parts.slice(0, 6).some((part) => part !== 0)) return false;
  return !(parts[6] === 0 && (parts[7] === 0 || parts[7] === 1));
}

/**
 * Reads a client address as the gateway uses it (the socket's, or one a trusted proxy reported): IPv4-mapped
 * IPv6 becomes the IPv4 address it carries. Null for anything that is not one address in canonical reading:
 * legacy IPv4 forms, zone ids, the IPv4-compatible form.
 *
 * @example
 * ```ts
 * parseClientAddress('::ffff:10.0.0.1')?.toString(); // '10.0.0.1'
 * parseClientAddress('::10.0.0.1'); // null
 * ```
 */
export function parseClientAddress(text: string): Address | null {
  return parsedAddress(text);
}

/**
 * The key a client address is counted under by the brute-force defence: an IPv4 address as itself (an
 * IPv4-mapped one too), an IPv6 address by its /64, since every IPv6 customer gets at least a /64 and would
 * otherwise have 2^64 fresh counters. Null when the address cannot be read (see parseClientAddress).
 *
 * @example
 * ```ts
 * throttleAddressKey('2001:db8:1:2:3:4:5:6'); // '2001:db8:1:2::/64'
 * ```
 */
export function throttleAddressKey(text: string): string | null {
  const address = parsedAddress(text);
  if (address === null) return null;
  if (address.kind() === 'ipv4') return address.toString();
  return `${networkAddress(address, 64).toString()}/64`;
}

/**
 * The key a client address is counted under wherever the gateway bounds what one client may do (failures and
 * lockouts, pending single sign-ons, aggregated audit entries): throttleAddressKey's, or the text itself when it
 * cannot be read.
 *
 * @example
 * ```ts
 * addressKey('2001:db8:1:2:3:4:5:6'); // '2001:db8:1:2::/64'
 * ```
 */
export function addressKey(clientAddress: string): string {
  return throttleAddressKey(clientAddress) ?? clientAddress;
}

function readsAsWritten(text: string, address: Address): boolean {
  if (address.kind() === 'ipv4') return ipaddr.IPv4.isValidFourPartDecimal(text);
  const withoutZone = text.split('%')[0] ?? '';
  const tail = withoutZone.slice(withoutZone.lastIndexOf(':') + 1);
  return !tail.includes('.') || ipaddr.IPv4.isValidFourPartDecimal(tail);
}

function single(text: string): [ipaddr.IPv4 | ipaddr.IPv6, number] {
  if (!ipaddr.isValid(text)) throw new Error('invalid');
  const address = ipaddr.parse(text);
  return [address, address.kind() === 'ipv4' ? 32 : 128];
}

function networkAddress(address: ipaddr.IPv4 | ipaddr.IPv6, prefix: number): ipaddr.IPv4 | ipaddr.IPv6 {
  const bytes = address.toByteArray();
  for (let bit = prefix; bit < bytes.length * 8; bit++) {
    const index = bit >> 3;
    bytes[index] = (bytes[index] ?? 0) & ~(0x80 >> (bit & 7));
  }
  return ipaddr.fromByteArray(bytes);
}

/**
 * True when `clientAddress` falls inside one of the allowlist's CIDRs. An IPv4-mapped IPv6 address
 * (`::ffff:10.0.0.1`, what a dual-stack socket reports for an IPv4 client) is matched as the IPv4 address
 * it carries. An empty allowlist allows nothing.
 */
export function isAddressAllowed(clientAddress: string, allowlist: readonly string[]): boolean {
  if (allowlist.length === 0) return false;
  const address = parsedAddress(clientAddress);
  if (address === null) return false;
  for (const entry of allowlist) {
    const range = parsedCidr(entry);
    if (range !== null && range[0].kind() === address.kind() && address.match(range)) return true;
  }
  return false;
}

type Address = ipaddr.IPv4 | ipaddr.IPv6;

// Parsing is most of the cost of this check, and the same few addresses and rules come back on every
// request: both are memoized, in maps bounded so that a flood of distinct addresses cannot grow them.
const MEMO_LIMIT = 10_000;
const addresses = new Map<string, Address | null>();
const cidrs = new Map<string, [Address, number] | null>();

function memo<T>(cache: Map<string, T>, key: string, compute: () => T): T {
  const known = cache.get(key);
  if (known !== undefined) return known;
  const value = compute();
  if (cache.size >= MEMO_LIMIT) cache.clear();
  cache.set(key, value);
  return value;
}

function parsedAddress(text: string): Address | null {
  // A socket always reports the canonical form, but should a legacy form ever reach here (through a proxy's
  // header, say), it is refused rather than read as inet_aton would, like an allowlist entry.
  return memo(addresses, text, () => {
    if (text.includes('%') || !ipaddr.isValid(text)) return null;
    const address = ipaddr.process(text);
    return readsAsWritten(text, ipaddr.parse(text)) && !isIpv4Compatible(text) ? address : null;
  });
}

function parsedCidr(text: string): [Address, number] | null {
  return memo(cidrs, text, () => {
    try {
      return ipaddr.parseCIDR(text);
    } catch {
      // A stored entry is always normalized; an unparsable one simply matches nothing.
      return null;
    }
  });
}

/**
 * An allowlist as stored: each entry normalized (normalizeCidr), duplicates dropped; each bad entry's problem noted
 * in `problems` under `ipAllowlist[i]`.
 *
 * @example
 * ```ts
 * normalizeAllowlist(['10.0.0.1', '10.0.0.1/32'], problems); // ['10.0.0.1/32']
 * ```
 */
export function normalizeAllowlist(entries: readonly string[], problems: ErrorDetail[]): string[] {
  const normalized = new Set<string>();
  entries.forEach((entry, index) => {
    const result = normalizeCidr(entry);
    if ('error' in result) problems.push({ field: `ipAllowlist[${index}]`, message: result.error });
    else normalized.add(result.cidr);
  });
  return [...normalized];
}
