import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import ipaddr from 'ipaddr.js';
import fc from 'fast-check';
import { isAddressAllowed, normalizeCidr } from './ip-allowlist.js';

// Properties of the allowlist against a reference written with plain integer arithmetic: what an entry is
// normalized to, and which client addresses it then lets in.

const RUNS = { numRuns: 500 };

const ipv4 = (value: number) => [24, 16, 8, 0].map((shift) => (value >>> shift) & 0xff).join('.');
const maskV4 = (prefix: number) => (prefix === 0 ? 0 : (0xffffffff << (32 - prefix)) >>> 0);
/** In ::/96 but neither :: nor ::1: the deprecated IPv4-compatible form, refused everywhere. */
const ipv4Compatible = (value: bigint) => value >> 32n === 0n && value > 1n;
const ipv6 = (value: bigint) =>
  Array.from({ length: 8 }, (_, index) => ((value >> BigInt(112 - index * 16)) & 0xffffn).toString(16)).join(':');
const maskV6 = (prefix: number) => (prefix === 0 ? 0n : ((1n << 128n) - 1n) ^ ((1n << BigInt(128 - prefix)) - 1n));

const uint32 = fc.integer({ min: 0, max: 0xffffffff });
const uint128 = fc.bigInt({ min: 0n, max: (1n << 128n) - 1n });

/** Strings that look like allowlist entries, and some that only nearly do. */
const entryLike = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 50 }),
  fc.tuple(fc.oneof(fc.ipV4(), fc.ipV6(), fc.ipV4Extended()), fc.option(fc.oneof(fc.integer({ min: -5, max: 200 }).map(String), fc.string({ maxLength: 4 })), { nil: undefined })).map(
    ([address, prefix]) => (prefix === undefined ? address : `${address}/${prefix}`),
  ),
  fc.constantFrom('', '/', '/0', '::', '::/0', '0.0.0.0/0', '::ffff:0:0/96', 'fe80::1%eth0', 'fe80::1%eth0/64', '1.2.3.4/24/1', '[::1]', '__proto__', 'constructor'),
);

describe('IP allowlist properties', () => {
  it('never throws on any entry, and answers either a CIDR or an error naming the entry', () => {
    fc.assert(
      fc.property(entryLike, (entry) => {
        const result = normalizeCidr(entry);
        if ('cidr' in result) assert.match(result.cidr, /^[0-9a-f.:]+\/\d{1,3}$/);
        else assert.ok(result.error.includes(entry.trim()), result.error);
      }),
      RUNS,
    );
  });

  it('normalizes idempotently: a normalized entry normalizes to itself', () => {
    fc.assert(
      fc.property(entryLike, (entry) => {
        const result = normalizeCidr(entry);
        if ('cidr' in result) assert.deepEqual(normalizeCidr(result.cidr), result);
      }),
      RUNS,
    );
  });

  it('never throws on any client address against any list, and an empty list allows nothing', () => {
    fc.assert(
      fc.property(fc.oneof(entryLike, fc.ipV4(), fc.ipV6()), fc.array(entryLike, { maxLength: 4 }), (client, list) => {
        assert.equal(typeof isAddressAllowed(client, list), 'boolean');
        assert.equal(isAddressAllowed(client, []), false);
      }),
      RUNS,
    );
  });

  it('keeps an IPv4 network as written and lets in exactly the addresses inside it, IPv4-mapped ones too', () => {
    fc.assert(
      fc.property(uint32, fc.integer({ min: 0, max: 32 }), uint32, (address, prefix, client) => {
        const network = (address & maskV4(prefix)) >>> 0;
        const result = normalizeCidr(`${ipv4(network)}/${prefix}`);
        assert.deepEqual(result, { cidr: `${ipv4(network)}/${prefix}` });
        if (network !== address) assert.ok('error' in normalizeCidr(`${ipv4(address)}/${prefix}`), 'host bits set are refused');
        const inside = ((client & maskV4(prefix)) >>> 0) === network;
        const cidr = (result as { cidr: string }).cidr;
        assert.equal(isAddressAllowed(ipv4(client), [cidr]), inside);
        assert.equal(isAddressAllowed(`::ffff:${ipv4(client)}`, [cidr]), inside);
        assert.equal(isAddressAllowed(ipv4(network), [cidr]), true);
      }),
      RUNS,
    );
  });

  it('keeps an IPv6 network as written and lets in exactly the addresses inside it', () => {
    fc.assert(
      fc.property(uint128, fc.integer({ min: 0, max: 128 }), uint128, fc.boolean(), (address, prefix, other, near) => {
        const network = address & maskV6(prefix);
        const result = normalizeCidr(`${ipv6(network)}/${prefix}`);
        if (ipv4Compatible(network)) return assert.ok('error' in result, 'the deprecated IPv4-compatible range is refused');
        assert.ok('cidr' in result, JSON.stringify(result));
        assert.deepEqual(normalizeCidr(result.cidr), result);
        // Half the clients share the network's prefix, so that both answers are exercised at every length.
        const client = near ? network | (other & ~maskV6(prefix) & ((1n << 128n) - 1n)) : other;
        const inside = (client & maskV6(prefix)) === network;
        if (ipv6(client).startsWith('0:0:0:0:0:ffff:')) return; // IPv4-mapped: matched as IPv4, below
        if (ipv4Compatible(client)) return assert.equal(isAddressAllowed(ipv6(client), [result.cidr]), false);
        assert.equal(isAddressAllowed(ipv6(client), [result.cidr]), inside, `${ipv6(client)} in ${result.cidr}`);
      }),
      RUNS,
    );
  });

  it('matches a client only against rules of its own family', () => {
    fc.assert(
      fc.property(fc.ipV4(), fc.ipV6().filter((address) => !address.includes('.') && !/^(0*:)*ffff:/i.test(address) && !ipaddr.IPv6.parse(address).parts.slice(0, 6).every((part) => part === 0)), (v4, v6) => {
        assert.equal(isAddressAllowed(v4, ['::/0']), false);
        assert.equal(isAddressAllowed(v6, ['0.0.0.0/0']), false);
        assert.equal(isAddressAllowed(v4, ['0.0.0.0/0']), true);
        assert.equal(isAddressAllowed(v6, ['::/0']), true);
      }),
      RUNS,
    );
  });

  // ipaddr.js alone reads the legacy inet_aton forms (`010.0.0.1` as 8.0.0.1, `167772161` as 10.0.0.1).
  it('reads an IPv4 address only as four decimal numbers: a leading zero, hex or a short form is refused, never read as octal', () => {
    fc.assert(
      fc.property(fc.ipV4Extended(), fc.option(fc.integer({ min: 0, max: 32 }), { nil: undefined }), (address, prefix) => {
        const entry = prefix === undefined ? address : `${address}/${prefix}`;
        const result = normalizeCidr(entry);
        const decimal = /^(0|[1-9]\d{0,2})(\.(0|[1-9]\d{0,2})){3}$/.test(address);
        if (!decimal) assert.ok('error' in result, `${entry} was read as ${JSON.stringify(result)}`);
        else if ('cidr' in result) assert.equal(result.cidr.split('/')[0], address);
      }),
      RUNS,
    );
    for (const entry of ['010.0.0.1', '010.0.0.0/8', '0x0a.0.0.0/8', '167772161', '10.1', '10.0.1/24', '::ffff:010.0.0.1', '::ffff:0x0a.0.0.0/104']) {
      assert.ok('error' in normalizeCidr(entry), entry);
    }
  });
});
