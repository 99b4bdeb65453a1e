import ipaddr from 'ipaddr.js';

/**
 * The form's check of an IP allowlist, the same as the gateway's (src/partners/ip-allowlist.ts): each entry
 * an IPv4 or IPv6 address (a /32 or /128) or a CIDR, and no host bits set (`10.0.0.5/24` is refused as a
 * likely typo). The gateway checks again; this only answers before the round trip.
 */
export function checkCidr(entry: string): { cidr: string } | { error: string } {
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

/** The entries of an allowlist as typed: one per line, or separated by commas or spaces. */
export function splitAllowlist(text: string): string[] {
  return text
    .split(/[\s,;]+/)
    .map((entry) => entry.trim())
    .filter((entry) => entry.length > 0);
}

/** Every entry's problem, in order, or an empty list. */
export function allowlistProblems(entries: readonly string[]): string[] {
  return entries.flatMap((entry) => {
    const result = checkCidr(entry);
    return 'error' in result ? [result.error] : [];
  });
}

// As the gateway does, an IPv4 address (alone or ending an IPv6 one) is accepted only as four decimal
// numbers without leading zeros: ipaddr.js would read `010.0.0.1` as octal 8.0.0.1, and `0x0a.0.0.1`,
// `167772161` or `10.1` as inet_aton does, letting in another address than the one the operator wrote.
const FOUR_DECIMALS = 'write IPv4 addresses as four decimal numbers without leading zeros, such as 10.0.0.1';

function readsAsWritten(text: string, address: ipaddr.IPv4 | ipaddr.IPv6): boolean {
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
