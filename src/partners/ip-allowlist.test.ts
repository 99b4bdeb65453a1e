import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { isAddressAllowed, normalizeCidr, throttleAddressKey } from './ip-allowlist.js';

describe('IP allowlist', () => {
  it('normalizes addresses and CIDRs, IPv4 and IPv6', () => {
    assert.deepEqual(normalizeCidr('10.0.0.1'), { cidr: '10.0.0.1/32' });
    assert.deepEqual(normalizeCidr(' 10.0.0.0/8 '), { cidr: '10.0.0.0/8' });
    assert.deepEqual(normalizeCidr('2001:DB8:0:0::/32'), { cidr: '2001:db8::/32' });
    assert.deepEqual(normalizeCidr('::1'), { cidr: '::1/128' });
  });

  it('refuses a CIDR with host bits set, suggesting the network', () => {
    const result = normalizeCidr('10.0.0.5/24');
    assert.ok('error' in result);
    assert.match(result.error, /did you mean 10\.0\.0\.0\/24/);
  });

  it('refuses what is not an address', () => {
    for (const entry of ['', 'localhost', '10.0.0.256', '10.0.0.0/33', '2001:db8::/129', '10.0.0.0/-1']) {
      assert.ok('error' in normalizeCidr(entry), entry);
    }
  });

  it('refuses an IPv4 address not written as four decimal numbers, saying how to write it', () => {
    for (const entry of ['010.0.0.1', '0x0a.0.0.0/8', '167772161', '10.1', '::ffff:010.0.0.1']) {
      assert.deepEqual(normalizeCidr(entry), {
        error: `${entry}: write IPv4 addresses as four decimal numbers without leading zeros, such as 10.0.0.1`,
      });
    }
    assert.deepEqual(normalizeCidr('::ffff:10.0.0.1'), { cidr: '::ffff:a00:1/128' });
  });

  it('allows an address inside a rule and refuses one outside', () => {
    assert.equal(isAddressAllowed('10.1.2.3', ['10.0.0.0/8']), true);
    assert.equal(isAddressAllowed('11.1.2.3', ['10.0.0.0/8']), false);
    assert.equal(isAddressAllowed('2001:db8::5', ['2001:db8::/32']), true);
    assert.equal(isAddressAllowed('2001:db9::5', ['2001:db8::/32']), false);
  });

  it('matches an IPv4-mapped IPv6 client against IPv4 rules', () => {
    assert.equal(isAddressAllowed('::ffff:10.1.2.3', ['10.0.0.0/8']), true);
    assert.equal(isAddressAllowed('::ffff:11.1.2.3', ['10.0.0.0/8']), false);
    assert.equal(isAddressAllowed('::ffff:127.0.0.1', ['127.0.0.1/32']), true);
  });

  it('never reads a client address in a legacy IPv4 form', () => {
    assert.equal(isAddressAllowed('010.0.0.1', ['8.0.0.0/8', '10.0.0.0/8']), false);
    assert.equal(isAddressAllowed('167772161', ['10.0.0.0/8']), false);
  });

  it('allows nothing with an empty list, and nothing that is not an address', () => {
    assert.equal(isAddressAllowed('127.0.0.1', []), false);
    assert.equal(isAddressAllowed('not-an-ip', ['0.0.0.0/0']), false);
    assert.equal(isAddressAllowed('10.0.0.1', ['::/0']), false, 'an IPv6 rule never matches an IPv4 client');
  });

  it('refuses the IPv4-compatible form and zone ids in an allowlist entry', () => {
    for (const entry of ['::10.0.0.1', '::a00:1', '::10.0.0.0/104', 'fe80::1%eth0', 'fe80::%1/64']) {
      assert.ok('error' in normalizeCidr(entry), entry);
    }
    assert.deepEqual(normalizeCidr('::1'), { cidr: '::1/128' });
    assert.deepEqual(normalizeCidr('64:ff9b::10.0.0.1'), { cidr: '64:ff9b::a00:1/128' });
  });

  it('never matches an IPv4-compatible or zoned client address', () => {
    assert.equal(isAddressAllowed('::10.0.0.1', ['10.0.0.0/8', '::/0']), false);
    assert.equal(isAddressAllowed('fe80::1%eth0', ['fe80::/10']), false);
    assert.equal(isAddressAllowed('fe80::1', ['fe80::/10']), true);
  });

  it('counts IPv6 clients per /64 and IPv4-mapped clients as IPv4', () => {
    assert.equal(throttleAddressKey('2001:db8:1:2:3:4:5:6'), '2001:db8:1:2::/64');
    assert.equal(throttleAddressKey('2001:db8:1:2:ffff::1'), '2001:db8:1:2::/64');
    assert.equal(throttleAddressKey('::ffff:10.1.2.3'), '10.1.2.3');
    assert.equal(throttleAddressKey('10.1.2.3'), '10.1.2.3');
    assert.equal(throttleAddressKey('::10.1.2.3'), null);
  });
});
