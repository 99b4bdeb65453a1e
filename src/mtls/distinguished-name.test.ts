import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { attributeType } from './attribute-types.js';
import {
  DistinguishedNameError,
  formatDistinguishedName,
  fromX509Name,
  parseDistinguishedName,
  sameDistinguishedName,
  type DistinguishedName,
} from './distinguished-name.js';

const same = (a: string, b: string) => sameDistinguishedName(parseDistinguishedName(a), parseDistinguishedName(b));

describe('distinguished names (RFC 4514)', () => {
  it('treats short names, long names, OIDs and any case of a type as one type', () => {
    assert.ok(same('CN=Partner,O=Acme,C=RU', 'commonName=Partner,organizationName=Acme,countryName=RU'));
    assert.ok(same('CN=Partner,O=Acme', '2.5.4.3=Partner,OID.2.5.4.10=Acme'));
    assert.ok(same('cn=Partner,o=Acme', 'CN=Partner,O=Acme'));
  });

  it('compares directory strings ignoring case and insignificant spaces', () => {
    assert.ok(same('CN=Partner  One,O=ACME', 'CN= partner one ,O=acme'));
    assert.ok(same('CN=Партнёр Один', 'CN=ПАРТНЁР  ОДИН'));
    assert.ok(same('CN=Partner\u00a0One', 'CN=partner one'), 'a no-break space is a space');
    assert.ok(!same('CN=Partner One', 'CN=PartnerOne'), 'a space between words is significant');
  });

  it('compares a type it does not know by name exactly', () => {
    assert.ok(same('1.2.3.4=Value', '1.2.3.4=Value'));
    assert.ok(!same('1.2.3.4=Value', '1.2.3.4=value'));
  });

  it('decodes \\-escapes of special characters and of hex bytes (UTF-8)', () => {
    const dn = parseDistinguishedName('CN=Acme\\, Inc.\\2B\\D0\\AF,O=\\#1\\ ');
    assert.equal(dn.rdns[0]![0]!.value, 'Acme, Inc.+Я');
    assert.equal(dn.rdns[1]![0]!.value, '#1 ');
    assert.ok(same('CN=Acme\\2C Inc.', 'CN=Acme\\, Inc.'));
  });

  it('reads a BER hex string value as the string it encodes', () => {
    assert.ok(same('CN=#0c07506172746e6572', 'CN=Partner'), 'UTF8String');
    assert.ok(same('CN=#1307506172746e6572', 'CN=partner'), 'PrintableString');
    const binary = parseDistinguishedName('1.2.3.4=#0403010203');
    assert.deepEqual(binary.rdns[0]![0], { oid: '1.2.3.4', shortName: '1.2.3.4', value: '0403010203', binary: true });
    assert.ok(!same('CN=#0403010203', 'CN=\\#0403010203'), 'an OCTET STRING never equals the text of its hex');
  });

  it('ignores the order of a multi-valued RDN but not the order of RDNs', () => {
    assert.ok(same('CN=Partner+UID=42,O=Acme', 'UID=42 + CN=partner,O=Acme'));
    assert.ok(!same('CN=Partner,O=Acme', 'O=Acme,CN=Partner'));
    assert.ok(!same('CN=Partner+UID=42,O=Acme', 'CN=Partner,UID=42,O=Acme'));
    assert.ok(!same('CN=Partner,O=Acme', 'CN=Partner,O=Acme,C=RU'), 'a missing RDN is a different name');
  });

  it('refuses what is not a name, saying where', () => {
    const refusals: Array<[string, RegExp]> = [
      ['Partner', /unknown attribute type "Partner"/],
      ['CN Partner', /character 4: expected "=" after CN/],
      ['c', /expected "=" after c/],
      ['CN=a,O', /expected "=" after O/],
      ['XYZ=1', /unknown attribute type "XYZ"/],
      ['CN=a;b', /";" must be escaped/],
      ['CN=a\\', /must be followed by/],
      ['CN=\\C3', /not UTF-8/],
      ['CN=a,', /expected an attribute type/],
      ['CN=a,=b', /expected an attribute type/],
      ['1.02.3=x', /unknown attribute type/],
    ];
    for (const [text, message] of refusals) {
      assert.throws(() => parseDistinguishedName(text), (error: unknown) => error instanceof DistinguishedNameError && message.test(error.message), text);
    }
  });

  it('reads the subject text of node\'s X509Certificate (most significant first, one RDN a line)', () => {
    const dn = fromX509Name('C=RU\nO=Acme\\, Inc.\\ \nCN=\\#x\\0Ay + UID=7\nINN=7700000000');
    assert.equal(formatDistinguishedName(dn), 'INN=7700000000,CN=\\#x\\0Ay+UID=7,O=Acme\\, Inc.\\ ,C=RU');
    assert.ok(sameDistinguishedName(dn, parseDistinguishedName('1.2.643.3.131.1.1=7700000000,UID=7+CN=#x\\0ay,O=acme\\, inc.,C=ru')));
  });
});

const knownType = fc.constantFrom('CN', 'O', 'OU', 'C', 'L', 'ST', 'DC', 'UID', 'emailAddress', 'serialNumber', '1.2.3.4');
const value = fc.string({ unit: 'grapheme', maxLength: 12 });
const nameArbitrary: fc.Arbitrary<DistinguishedName> = fc
  .array(fc.array(fc.tuple(knownType, value), { minLength: 1, maxLength: 3 }), { minLength: 1, maxLength: 5 })
  .map((rdns) => ({
    rdns: rdns.map((rdn) =>
      rdn.map(([name, text]) => {
        const type = attributeType(name)!;
        return { oid: type.oid, shortName: type.shortName, value: text };
      }),
    ),
  }));

describe('distinguished names: properties', () => {
  it('parses what it formats back into the same name, whatever the values hold', () => {
    fc.assert(
      fc.property(nameArbitrary, (dn) => {
        const text = formatDistinguishedName(dn);
        const again = parseDistinguishedName(text);
        assert.ok(sameDistinguishedName(dn, again), text);
        assert.equal(formatDistinguishedName(again), formatDistinguishedName(parseDistinguishedName(text)));
      }),
    );
  });

  it('finds a name equal to itself with its multi-valued RDNs reordered and its separators spaced', () => {
    fc.assert(
      fc.property(nameArbitrary, (dn) => {
        const reordered = { rdns: dn.rdns.map((rdn) => [...rdn].reverse()) };
        const spaced = formatDistinguishedName(reordered).replace(/(?<!\\)([,+])/g, ' $1 ');
        assert.ok(sameDistinguishedName(dn, parseDistinguishedName(spaced)), spaced);
      }),
    );
  });

  it('never finds two names equal when an RDN was added', () => {
    fc.assert(
      fc.property(nameArbitrary, (dn) => {
        const longer = { rdns: [...dn.rdns, [{ oid: '2.5.4.6', shortName: 'C', value: 'RU' }]] };
        assert.ok(!sameDistinguishedName(dn, longer));
      }),
    );
  });

  it('either parses or refuses with a DistinguishedNameError, whatever the text', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 40 }), (text) => {
        try {
          parseDistinguishedName(text);
        } catch (error) {
          assert.ok(error instanceof DistinguishedNameError, String(error));
        }
      }),
    );
  });
});
