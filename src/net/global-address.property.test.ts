import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { isGlobalAddress } from './global-address.js';

// Properties against a reference written with integer arithmetic: the non-global IPv4 ranges, and every IPv6
// form that carries an IPv4 address.

const RUNS = { numRuns: 1000 };

const NON_GLOBAL_IPV4: [number, number][] = [
  [0x00000000, 8], [0x0a000000, 8], [0x64400000, 10], [0x7f000000, 8], [0xa9fe0000, 16], [0xac100000, 12], [0xc0000000, 24],
  [0xc0000200, 24], [0xc0586300, 24], [0xc0a80000, 16], [0xc6120000, 15], [0xc6336400, 24], [0xcb007100, 24], [0xe0000000, 4],
  [0xf0000000, 4], [0xffffffff, 32],
];

const hex16 = (value: number) => (value & 0xffff).toString(16);
const high = (v4: number) => hex16(v4 >>> 16);
const low = (v4: number) => hex16(v4);
const dotted = (v4: number) => [24, 16, 8, 0].map((shift) => (v4 >>> shift) & 0xff).join('.');

/** An address inside one of the non-global ranges. */
const nonGlobalIPv4 = fc
  .tuple(fc.constantFrom(...NON_GLOBAL_IPV4), fc.integer({ min: 0, max: 0xffffffff }))
  .map(([[network, prefix], host]) => (prefix === 32 ? network : (network | (host >>> prefix)) >>> 0));

/** Every IPv6 spelling that embeds `v4`: mapped, compatible, translated, NAT64 (both prefixes), 6to4, Teredo. */
const embeddings = (v4: number, random: number) => [
  `::ffff:${dotted(v4)}`, `::ffff:${high(v4)}:${low(v4)}`, `::${dotted(v4)}`, `::${high(v4)}:${low(v4)}`, `::ffff:0:${dotted(v4)}`,
  `64:ff9b::${dotted(v4)}`, `64:ff9b::${high(v4)}:${low(v4)}`, `64:ff9b:1::${high(v4)}:${low(v4)}`,
  `64:ff9b:1:${high(v4)}:${hex16(v4 >>> 8 & 0xff)}00:${hex16((v4 & 0xff) << 8)}::`,
  `2002:${high(v4)}:${low(v4)}:${hex16(random)}::1`,
  `2001:0:${hex16(random)}:${hex16(random >>> 16)}:8000:${hex16(random)}:${high(~v4 >>> 0)}:${low(~v4 >>> 0)}`,
];

describe('global address properties', () => {
  it('when an IPv4 address is in a non-global range, then it and every IPv6 form embedding it are refused', () => {
    fc.assert(
      fc.property(nonGlobalIPv4, fc.integer({ min: 0, max: 0xffffffff }), (v4, random) => {
        assert.equal(isGlobalAddress(dotted(v4)), false, dotted(v4));
        for (const form of embeddings(v4, random)) assert.equal(isGlobalAddress(form), false, form);
      }),
      RUNS,
    );
  });

  it('when an IPv4 address is judged, then its IPv4-mapped and NAT64 forms are judged the same, and the others refused', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 0xffffffff }), fc.integer({ min: 0, max: 0xffffffff }), (v4, random) => {
        const plain = isGlobalAddress(dotted(v4));
        const [mappedDotted, mappedHex, ...rest] = embeddings(v4, random);
        assert.equal(isGlobalAddress(mappedDotted!), plain);
        assert.equal(isGlobalAddress(mappedHex!), plain);
        assert.equal(isGlobalAddress(`64:ff9b::${dotted(v4)}`), plain);
        for (const form of rest.filter((address) => !address.startsWith('64:ff9b::'))) assert.equal(isGlobalAddress(form), false, form);
      }),
      RUNS,
    );
  });

  it('when an IPv6 address lies outside 2000::/3 and is neither IPv4-mapped nor NAT64, then it is refused', () => {
    const uint128 = fc.bigInt({ min: 0n, max: (1n << 128n) - 1n }).filter((value) => value >> 125n !== 1n);
    const ipv6 = (value: bigint) => Array.from({ length: 8 }, (_, index) => ((value >> BigInt(112 - index * 16)) & 0xffffn).toString(16)).join(':');
    fc.assert(
      fc.property(uint128, (value) => {
        const address = ipv6(value);
        if (value >> 32n === 0xffffn || value >> 32n === 0x64ff9b0000000000000000n) return;
        assert.equal(isGlobalAddress(address), false, address);
      }),
      RUNS,
    );
  });

  it('when given any string, then it answers a boolean and never throws', () => {
    fc.assert(fc.property(fc.oneof(fc.string(), fc.ipV4Extended(), fc.ipV6(), fc.domain()), (value) => typeof isGlobalAddress(value) === 'boolean'), RUNS);
  });
});
