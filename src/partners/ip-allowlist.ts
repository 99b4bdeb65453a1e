import ipaddr from 'ipaddr.js';

/**
 * Parses an allowlist entry: a CIDR (`10.0.0.0/24`, `2001:db8::/32`) or a single address, which becomes a
 * /32 or /128. Returns the normalized CIDR, or an error message naming what is wrong. Entries with host
 * bits set (`10.0.0.5/24`) are refused rather than silently widened, since they are usually typos.
 */
export function normalizeCidr(entry: string): { cidr: string } | { error: string } {
  const text = entry.trim();
  try {
    const [address, prefix] = text.includes('/') ? ipaddr.parseCIDR(text) : single(text);
    if (!readsAsWritten(text.split('/')[0] ?? '', address)) return { error: `${text}: ${FOUR_DECIMALS}` };
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
    if (!ipaddr.isValid(text)) return null;
    return readsAsWritten(text, ipaddr.parse(text)) ? ipaddr.process(text) : null;
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
