import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { isGlobalAddress, isLoopbackAddress } from './global-address.js';

/** Every form the jwksUri guard and the bank registry download must refuse, with why. */
const REFUSED: [string, string][] = [
  ['0.0.0.0', 'this network 0/8'], ['0.1.2.3', 'this network 0/8'], ['10.0.0.1', 'private 10/8'], ['10.255.255.255', 'private 10/8'],
  ['100.64.0.1', 'CGNAT 100.64/10'], ['100.127.255.254', 'CGNAT 100.64/10'], ['127.0.0.1', 'loopback'], ['127.255.255.254', 'loopback'],
  ['169.254.169.254', 'link-local (cloud metadata)'], ['172.16.0.1', 'private 172.16/12'], ['172.31.255.255', 'private 172.16/12'],
  ['192.0.0.1', 'IETF protocol assignments 192.0.0/24'], ['192.0.0.9', '192.0.0/24 as a whole'], ['192.0.2.1', 'TEST-NET-1'],
  ['192.88.99.1', '6to4 relay anycast'], ['192.168.1.1', 'private 192.168/16'], ['198.18.0.1', 'benchmarking 198.18/15'],
  ['198.19.255.255', 'benchmarking 198.18/15'], ['198.51.100.1', 'TEST-NET-2'], ['203.0.113.1', 'TEST-NET-3'], ['224.0.0.1', 'multicast'],
  ['239.255.255.250', 'multicast'], ['240.0.0.1', 'reserved 240/4'], ['255.255.255.255', 'broadcast'],
  ['192.175.48.1', 'AS112 (ipaddr.js as112: no web host)'], ['192.52.193.1', 'AMT (ipaddr.js amt: no web host)'],
  ['::', 'unspecified'], ['::1', 'loopback'], ['fc00::1', 'unique local fc00::/7'], ['fd00::1', 'unique local fc00::/7'],
  ['fe80::1', 'link-local fe80::/10'], ['febf:ffff::1', 'link-local fe80::/10'], ['fec0::1', 'deprecated site-local'],
  ['ff02::1', 'multicast'], ['ff0e::1', 'multicast'], ['100::1', 'discard 100::/64'], ['2001:db8::1', 'documentation 2001:db8::/32'],
  ['3fff::1', 'documentation 3fff::/20'], ['3fff:fff::1', 'documentation 3fff::/20'], ['2001:10::1', 'ORCHID 2001:10::/28'],
  ['2001:20::1', 'ORCHIDv2 2001:20::/28'], ['2001:2::1', 'benchmarking 2001:2::/48'], ['2001:1ff::1', 'IETF protocol assignments 2001::/23'],
  ['5f00::1', 'SRv6 5f00::/16'], ['4000::1', 'outside 2000::/3 (unallocated)'], ['fe80::1%eth0', 'a zone id'],
  ['::7f00:1', 'IPv4-compatible 127.0.0.1 (the finding)'], ['::127.0.0.1', 'IPv4-compatible 127.0.0.1'], ['::10.0.0.1', 'IPv4-compatible private'],
  ['::8.8.8.8', 'IPv4-compatible, deprecated: refused whatever it carries'], ['::ffff:127.0.0.1', 'IPv4-mapped loopback'],
  ['::ffff:7f00:1', 'IPv4-mapped loopback, hex'], ['::ffff:10.0.0.1', 'IPv4-mapped private'], ['::ffff:169.254.169.254', 'IPv4-mapped link-local'],
  ['::ffff:0:7f00:1', 'IPv4-translated ::ffff:0:0:0/96'], ['64:ff9b::7f00:1', 'NAT64 of loopback'], ['64:ff9b::10.0.0.1', 'NAT64 of private'],
  ['64:ff9b::100.64.0.1', 'NAT64 of CGNAT'], ['64:ff9b:1::808:808', 'local-use NAT64 64:ff9b:1::/48 as a whole'],
  ['64:ff9b:1:7f00:1::', 'local-use NAT64 of loopback (/48 format)'], ['2002:7f00:1::1', '6to4 of loopback'], ['2002:a00:1::1', '6to4 of private'],
  ['2002:808:808::1', '6to4 as a whole'], ['2001:0:4136:e378:8000:63bf:80ff:fffe', 'Teredo of 127.0.0.1 (client XOR ffffffff)'],
  ['2001:0:4136:e378:8000:63bf:3fff:fdd2', 'Teredo as a whole'],
  ['localhost', 'a name'], ['', 'empty'], ['127.1', 'short IPv4 form'], ['0x7f.0.0.1', 'hex IPv4 form'], ['[::1]', 'brackets'], ['::1/128', 'a CIDR'],
];

const ACCEPTED = [
  '93.184.215.14', '8.8.8.8', '1.1.1.1', '100.63.255.255', '100.128.0.1', '172.15.255.255', '172.32.0.1', '192.0.1.1', '198.17.255.255',
  '198.20.0.1', '223.255.255.255', '2606:4700:4700::1111', '2001:4860:4860::8888', '2a00:1450:4001::1', '2001:200::1',
  '::ffff:8.8.8.8', '64:ff9b::8.8.8.8', '64:ff9b::5db8:d70e',
];

describe('which addresses are global', () => {
  for (const [address, why] of REFUSED) {
    it(`when the address is ${JSON.stringify(address)} (${why}), then it is refused`, () => {
      assert.equal(isGlobalAddress(address), false);
    });
  }

  it('when the address is global unicast, or an IPv4-mapped or NAT64 (64:ff9b::/96) form of one, then it is accepted', () => {
    for (const address of ACCEPTED) assert.equal(isGlobalAddress(address), true, address);
  });

  it('when the address is loopback in any plain or mapped form, then plain http may reach it outside production', () => {
    for (const address of ['127.0.0.1', '127.1.2.3', '::1', '::ffff:127.0.0.1']) assert.equal(isLoopbackAddress(address), true, address);
    for (const address of ['::7f00:1', '10.0.0.1', 'localhost', '127.1', '8.8.8.8']) assert.equal(isLoopbackAddress(address), false, address);
  });
});
