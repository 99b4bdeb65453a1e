import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';

/**
 * Non-global ranges named in the IANA special-purpose address registries (IPv4 and IPv6) plus multicast, kept
 * here as well as in ipaddr.js's range names so that a library update that drops or renames a range cannot widen
 * what the gateway connects to.
 */
const NON_GLOBAL_IPV4 = [
  '0.0.0.0/8', '10.0.0.0/8', '100.64.0.0/10', '127.0.0.0/8', '169.254.0.0/16', '172.16.0.0/12', '192.0.0.0/24',
  '192.0.2.0/24', '192.88.99.0/24', '192.168.0.0/16', '198.18.0.0/15', '198.51.100.0/24', '203.0.113.0/24',
  '224.0.0.0/4', '240.0.0.0/4', '255.255.255.255/32',
].map((cidr) => ipaddr.IPv4.parseCIDR(cidr));

/**
 * Inside 2000::/3 (the only IPv6 block allocated as global unicast) but not global, or an IPv4-embedding form
 * refused as a whole: IETF protocol assignments 2001::/23 (Teredo 2001::/32, benchmarking, ORCHID 2001:10::/28
 * and 2001:20::/28), documentation 2001:db8::/32 and 3fff::/20, 6to4 2002::/16.
 */
const NON_GLOBAL_IPV6 = ['2001::/23', '2001:db8::/32', '2002::/16', '3fff::/20'].map((cidr) => ipaddr.IPv6.parseCIDR(cidr));
const GLOBAL_UNICAST_IPV6 = ipaddr.IPv6.parseCIDR('2000::/3');
/** Forms whose last 32 bits are an IPv4 address the connection reaches, judged as that address. */
const IPV4_EMBEDDING = [ipaddr.IPv6.parseCIDR('::ffff:0:0/96'), ipaddr.IPv6.parseCIDR('64:ff9b::/96')];

/**
 * True only for a globally routable unicast address: the one kind a server may be pointed at by a partner or
 * an operator without reaching the gateway's own network (SSRF). An IPv4 address must be ipaddr.js's `unicast`
 * and outside every non-global range. An IPv6 address must lie in 2000::/3, be `unicast` and outside
 * documentation, ORCHID, Teredo and 6to4; IPv4-mapped (`::ffff:a.b.c.d`) and NAT64 well-known-prefix
 * (`64:ff9b::a.b.c.d`, what DNS64 answers on an IPv6-only network) addresses are judged by the IPv4 address
 * they carry. Everything else is refused: IPv4-compatible (`::a.b.c.d`, `::7f00:1`), local-use NAT64
 * (64:ff9b:1::/48), IPv4-translated, 6to4, Teredo, SRv6 (5f00::/16), discard (100::/64), zone ids, and
 * anything that is not an address literal in its plain form.
 *
 * @example
 * ```ts
 * isGlobalAddress('93.184.215.14'); // true
 * isGlobalAddress('::7f00:1'); // false (IPv4-compatible 127.0.0.1)
 * isGlobalAddress('64:ff9b::10.0.0.1'); // false (NAT64 of a private address)
 * ```
 */
export function isGlobalAddress(address: string): boolean {
  const parsed = parse(address);
  if (parsed === undefined) return false;
  if (parsed.kind() === 'ipv4') return isGlobalIPv4(parsed as ipaddr.IPv4);
  const v6 = parsed as ipaddr.IPv6;
  if (IPV4_EMBEDDING.some((range) => v6.match(range))) return isGlobalIPv4(embeddedIPv4(v6));
  return v6.match(GLOBAL_UNICAST_IPV6) && v6.range() === 'unicast' && !NON_GLOBAL_IPV6.some((range) => v6.match(range));
}

/** True for 127.0.0.0/8, ::1 and `::ffff:127.x.y.z`: where plain http is allowed outside production. */
export function isLoopbackAddress(address: string): boolean {
  const parsed = parse(address);
  if (parsed === undefined) return false;
  return (parsed.kind() === 'ipv6' && (parsed as ipaddr.IPv6).isIPv4MappedAddress() ? (parsed as ipaddr.IPv6).toIPv4Address() : parsed).range() === 'loopback';
}

/**
 * The address as the operating system reads it, or undefined for anything that is not a plain address literal
 * (names, short or hex IPv4 forms, zone ids). ipaddr.js reads `::a.b.c.d` as IPv4-mapped where the system (and
 * glibc's inet_ntop, which prints IPv4-compatible answers of the resolver that way) means IPv4-compatible
 * `::xxxx:xxxx`: an IPv6 literal is first put in its canonical hex form by the WHATWG URL parser.
 */
function parse(address: string): ipaddr.IPv4 | ipaddr.IPv6 | undefined {
  const family = isIP(address);
  if (family === 4) return ipaddr.IPv4.parse(address);
  if (family !== 6 || address.includes('%')) return undefined;
  return ipaddr.IPv6.parse(new URL(`http://[${address}]/`).hostname.slice(1, -1));
}

function isGlobalIPv4(address: ipaddr.IPv4): boolean {
  return address.range() === 'unicast' && !NON_GLOBAL_IPV4.some((range) => address.match(range));
}

function embeddedIPv4(address: ipaddr.IPv6): ipaddr.IPv4 {
  const [high, low] = address.parts.slice(6) as [number, number];
  return new ipaddr.IPv4([high >> 8, high & 0xff, low >> 8, low & 0xff]);
}
