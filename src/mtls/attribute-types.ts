/**
 * The attribute types of distinguished names the gateway knows by name: short names and long names (RFC 4519,
 * X.520, PKCS #9, and the Russian identifiers of GOST R certificates that OpenSSL names), each mapped to its OID.
 * A name is matched case-insensitively; an unknown type must be written as its dotted OID.
 *
 * `caseIgnore` says whether the type's equality rule ignores case (caseIgnoreMatch, caseIgnoreIA5Match): true
 * for the directory strings partners put in subjects. Unknown types are compared exactly, which can only refuse
 * a match, never grant one the rule would not.
 *
 * @example
 * ```ts
 * attributeType('commonName'); // { oid: '2.5.4.3', shortName: 'CN', caseIgnore: true }
 * ```
 */
export function attributeType(name: string): AttributeType | undefined {
  const oid = NUMERIC_OID.test(name) ? name.replace(/^oid\./i, '') : BY_NAME.get(name.toLowerCase());
  if (oid === undefined) return undefined;
  return BY_OID.get(oid) ?? { oid, shortName: oid, caseIgnore: false };
}

export interface AttributeType {
  oid: string;
  /** The name OpenSSL (and so node's X509Certificate) prints, or the OID when there is none. */
  shortName: string;
  caseIgnore: boolean;
}

/** A dotted OID, with RFC 1779's optional `OID.` prefix; no leading zeros in an arc. */
const NUMERIC_OID = /^(?:oid\.)?(?:0|[1-9]\d*)(?:\.(?:0|[1-9]\d*))+$/i;

const TYPES: Array<[oid: string, caseIgnore: boolean, ...names: string[]]> = [
  ['2.5.4.3', true, 'CN', 'commonName'],
  ['2.5.4.4', true, 'SN', 'surname'],
  ['2.5.4.5', true, 'serialNumber'],
  ['2.5.4.6', true, 'C', 'countryName'],
  ['2.5.4.7', true, 'L', 'localityName'],
  ['2.5.4.8', true, 'ST', 'stateOrProvinceName', 'S'],
  ['2.5.4.9', true, 'street', 'streetAddress'],
  ['2.5.4.10', true, 'O', 'organizationName'],
  ['2.5.4.11', true, 'OU', 'organizationalUnitName'],
  ['2.5.4.12', true, 'title'],
  ['2.5.4.17', true, 'postalCode'],
  ['2.5.4.42', true, 'GN', 'givenName'],
  ['2.5.4.43', true, 'initials'],
  ['2.5.4.44', true, 'generationQualifier'],
  ['2.5.4.46', true, 'dnQualifier'],
  ['2.5.4.65', true, 'pseudonym'],
  ['2.5.4.97', true, 'organizationIdentifier'],
  ['0.9.2342.19200300.100.1.1', true, 'UID', 'userId'],
  ['0.9.2342.19200300.100.1.25', true, 'DC', 'domainComponent'],
  ['1.2.840.113549.1.9.1', true, 'emailAddress', 'E', 'email'],
  // GOST R 34.10 certificates (Russian qualified certificates) carry these registration numbers: digits only,
  // so case does not matter, but they are named so that `INN=...` reads as node prints it.
  ['1.2.643.3.131.1.1', true, 'INN'],
  ['1.2.643.100.1', true, 'OGRN'],
  ['1.2.643.100.3', true, 'SNILS'],
  ['1.2.643.100.4', true, 'INNLE'],
  ['1.2.643.100.5', true, 'OGRNIP'],
];

const BY_NAME = new Map<string, string>();
const BY_OID = new Map<string, AttributeType>();
for (const [oid, caseIgnore, shortName, ...aliases] of TYPES) {
  BY_OID.set(oid, { oid, shortName: shortName!, caseIgnore });
  for (const name of [shortName!, ...aliases]) BY_NAME.set(name.toLowerCase(), oid);
}
