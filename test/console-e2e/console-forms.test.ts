import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { importContentType } from '@partner-gateway/contract/import-media-types';
import { LOGIN_REGEXP } from '@partner-gateway/contract/patterns';
import { allowlistProblems, checkCidr, splitAllowlist } from '../../console/src/cidr.js';
import { generatePassword } from '../../console/src/password.js';
import { problemsInWords } from '../../console/src/problem-words.js';
import { normalizeCidr } from '../../src/partners/ip-allowlist.js';

/** The console's own checks, run before a form is sent, must agree with the gateway's. */
describe('admin console form checks', () => {
  it('checks allowlist entries exactly as the gateway does', () => {
    const entries = [
      '10.0.0.0/8',
      '10.0.0.5/24',
      '10.0.0.300',
      '203.0.113.7',
      ' 192.0.2.0/24 ',
      '2001:db8::/32',
      '2001:db8::1/32',
      '::1',
      '::ffff:10.0.0.1',
      '0.0.0.0/0',
      '::/0',
      '1.2.3.4/33',
      'fe80::1%eth0',
      'example.com',
      '',
      '10.0.0.0/08',
      '010.0.0.1',
      '0x0a.0.0.0/8',
      '167772161',
      '10.1',
      '::ffff:010.0.0.1',
    ];
    for (const entry of entries) {
      assert.deepEqual(checkCidr(entry), normalizeCidr(entry), `${entry}: console/src/cidr.ts must agree with src/partners/ip-allowlist.ts`);
    }
  });

  it('splits an allowlist typed one per line or with commas, and lists every bad entry', () => {
    assert.deepEqual(splitAllowlist(' 10.0.0.0/8,\n\n203.0.113.7 ; 2001:db8::/32\n'), ['10.0.0.0/8', '203.0.113.7', '2001:db8::/32']);
    assert.deepEqual(allowlistProblems(['10.0.0.0/8', '10.0.0.5/24', 'x']), [
      '10.0.0.5/24 has host bits set; did you mean 10.0.0.0/24?',
      'x is not an IPv4 or IPv6 address or CIDR',
    ]);
  });

  it('generates 24-character passwords from 62 characters, all different', () => {
    const passwords = Array.from({ length: 200 }, () => generatePassword());
    for (const password of passwords) assert.match(password, /^[A-Za-z0-9]{24}$/);
    assert.equal(new Set(passwords).size, passwords.length);
    const characters = new Set(passwords.join(''));
    assert.ok(characters.size > 55, `only ${characters.size} distinct characters`);
  });

  it('checks logins by the API schema’s pattern (reward types are ticked from the gateway’s catalogue)', () => {
    assert.ok(LOGIN_REGEXP.test('acme.shop@1'));
    assert.ok(!LOGIN_REGEXP.test('ab'));
    assert.ok(!LOGIN_REGEXP.test('-acme'));
  });

  it('sends an import file with the Content-Type its name implies', () => {
    assert.equal(importContentType('banks.JSON'), 'application/json');
    assert.equal(importContentType('20230518_ED807_full.xml'), 'application/xml');
    assert.equal(importContentType('list.csv'), 'text/csv');
    assert.equal(importContentType('list.txt'), undefined);
  });

  it('when the API refuses a value by a schema, then the problem reads in words: the field named, what a valid value looks like, a union\'s noise dropped', () => {
    const words = problemsInWords([
      { field: 'sbpMemberId', message: 'must match pattern "^([0-9]{12})?$"' },
      { field: 'sbpMemberId', message: 'must be null' },
      { field: 'sbpMemberId', message: 'must match a schema in anyOf' },
      { field: 'nameEn', message: 'must be null' },
      { field: 'nameEn', message: 'must match a schema in anyOf' },
      { field: 'ipAllowlist[1]', message: 'is not an IP address or CIDR' },
      { field: 'position', message: 'must be integer' },
      { field: 'login', message: 'must match pattern "^[A-Za-z0-9][A-Za-z0-9._@-]{2,63}$"' },
      { field: 'x', message: 'must match pattern "^q$"' },
      { line: 3, message: 'must be a non-empty string' },
    ]).map((problem) => problem.message);
    assert.deepEqual(words, [
      'SBP member id must be 12 digits, or empty.',
      'Latin name is not a valid value.',
      'IP allowlist, entry 2 is not an IP address or CIDR.',
      'Position must be a whole number.',
      'Login must be 3 to 64 letters, digits or . _ @ -, starting with a letter or digit.',
      'x is not in the expected form.',
      'must be a non-empty string',
    ]);
  });
});
