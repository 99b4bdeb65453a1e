import assert from 'node:assert/strict';
import { BOUNDED_DATE_TIME_PATTERN, PATTERN_PROBLEMS } from '@partner-gateway/contract/patterns';
import { after, before, describe, it } from 'node:test';
import fc from 'fast-check';
import { errors } from '../errors.js';
import { assertNeverServerError } from '../../test/support/error-shape.js';
import { testBackends } from '../../test/support/test-databases.js';
import { startTestGateway, TEST_ADMIN_TOKEN, type TestGateway } from '../../test/support/test-gateway.js';

// Property-based tests over every input of the admin API: bodies, path parameters, query strings, the
// admin token and import files. Whatever arrives, the answer is never a 5xx and never a stack trace, and
// every 4xx is `{"description_status": "...", "errors"?: [...]}` as application/json. PGlite only.

const RUNS = { numRuns: 250 };
const ADMIN = { authorization: `Bearer ${TEST_ADMIN_TOKEN}` };
const JSON_TYPE = { 'content-type': 'application/json' };
type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** Any text, U+0000 included. */
const text = (maxLength = 40) => fc.string({ unit: 'binary', maxLength });
const loose = fc.oneof(fc.jsonValue({ maxDepth: 2 }), text(), fc.constant(null), fc.array(text(10), { maxLength: 3 }));
const headerText = (maxLength = 60) =>
  fc.array(fc.oneof(fc.integer({ min: 0x20, max: 0x7e }), fc.integer({ min: 0x80, max: 0xff })), { maxLength }).map((codes) => String.fromCharCode(...codes));
const cidrLike = fc.oneof(
  fc.ipV4(),
  fc.ipV6(),
  fc.ipV4Extended(),
  fc.tuple(fc.oneof(fc.ipV4(), fc.ipV6()), fc.integer({ min: -2, max: 140 })).map(([address, prefix]) => `${address}/${prefix}`),
  fc.constantFrom('0.0.0.0/0', '::/0', 'fe80::1%eth0', '10.0.0.5/24', '1.2.3.4/33', '', ' ', '__proto__'),
  text(64),
);
const bicLike = fc.oneof(
  fc.integer({ min: 0, max: 9_999_999 }).map((n) => `04${String(n).padStart(7, '0')}`),
  fc.stringMatching(/^[0-9]{0,12}$/),
  fc.integer().map(String),
  text(12),
);
const bankLike = fc.oneof(
  fc.record({ bic: fc.oneof(bicLike, loose), name: fc.oneof(text(50), loose), nameEn: fc.oneof(text(50), loose), sbpMemberId: fc.oneof(fc.stringMatching(/^[0-9]{10,13}$/), loose) }, { requiredKeys: [] }),
  fc.record({ bic: bicLike, name: fc.oneof(text(50), fc.constantFrom('Bank\0', 'Ba\u0007nk', '\0')) }),
  loose,
);
/** A query-string component: well encoded, or with broken percent-encoding. */
const queryComponent = fc.oneof(
  text(20).map(encodeURIComponent),
  fc.constantFrom('%', '%FF', '%C3%28', '%E0%A4%A', '+', '%2B', '[]', 'true', 'false', 'replace', 'merge', 'success', 'failure', '1', '0', '1000', '1001', '-1'),
);
const queryString = (names: readonly string[]) =>
  fc
    .array(fc.tuple(fc.oneof(fc.constantFrom(...names, '__proto__', 'constructor'), queryComponent), queryComponent), { maxLength: 5 })
    .map((pairs) => pairs.map(([key, value]) => `${key}=${value}`).join('&'));
const segment = () => text(30).filter((value) => value.length > 0).map(encodeURIComponent);

describe('bad input on the admin API (pglite)', () => {
  let t: TestGateway;
  const target = 'fuzz-target';
  before(async () => {
    t = await startTestGateway(testBackends()[0]!);
    await t.addPartner({ login: target });
  });
  after(() => t.close());

  const send = (method: Method, url: string, payload?: unknown, headers: Record<string, string> = {}) =>
    t.admin.inject({
      method,
      url,
      headers: { ...ADMIN, ...(payload === undefined ? {} : JSON_TYPE), ...headers },
      ...(payload === undefined ? {} : { payload: JSON.stringify(payload) }),
    });

  it('never answers a 5xx to any body creating a partner: logins, passwords, CIDRs and reward types', async () => {
    const body = fc.oneof(
      fc.record(
        {
          login: fc.oneof(fc.stringMatching(/^[A-Za-z0-9][A-Za-z0-9._@-]{2,20}$/), loose),
          password: fc.oneof(text(11), loose),
          ipAllowlist: fc.oneof(fc.array(cidrLike, { maxLength: 4 }), loose),
          rewardTypes: fc.oneof(fc.array(fc.oneof(fc.constantFrom('sbp', 'cards'), fc.stringMatching(/^[a-z][a-z0-9_]{0,5}$/), text(8)), { maxLength: 3 }), loose),
          status: fc.oneof(fc.constantFrom('active', 'blocked'), loose),
        },
        { requiredKeys: [] },
      ),
      fc.jsonValue({ maxDepth: 3 }),
    );
    await fc.assert(
      fc.asyncProperty(body, async (value) => {
        assertNeverServerError(await send('POST', '/admin/v1/partners', value), value, [201, 400, 409, 422]);
      }),
      RUNS,
    );
  });

  it('creates a partner only with an allowlist of valid CIDRs, and refuses each bad entry by its index', async () => {
    let n = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(cidrLike, { maxLength: 5 }), async (ipAllowlist) => {
        const login = `cidr-${process.pid}-${++n}`;
        // A short password: refused with the CIDRs, so that no argon2 hash is computed.
        const response = await send('POST', '/admin/v1/partners', { login, password: 'short', ipAllowlist, rewardTypes: ['sbp'] });
        assertNeverServerError(response, ipAllowlist, [422]);
        const fields = (response.json().errors as Array<{ field?: string }>).map((detail) => detail.field);
        assert.ok(fields.includes('password'));
        for (const field of fields) if (field !== 'password') assert.match(String(field), /^ipAllowlist\[\d+\]$/);
      }),
      RUNS,
    );
  });

  it('never answers a 5xx to any change of a partner, or to any login in the path', async () => {
    const change = fc.oneof(
      fc.record({ status: fc.oneof(fc.constantFrom('active', 'blocked'), loose), ipAllowlist: fc.oneof(fc.array(cidrLike, { maxLength: 3 }), loose), rewardTypes: loose, password: fc.oneof(text(11), loose) }, { requiredKeys: [] }),
      fc.jsonValue({ maxDepth: 2 }),
    );
    const login = fc.oneof(fc.constant(target), segment(), fc.constantFrom('%FF', '%2F', '..', '__proto__', 'constructor', 'a%00b'));
    const method = fc.constantFrom('GET', 'PATCH', 'DELETE') as fc.Arbitrary<Method>;
    await fc.assert(
      fc.asyncProperty(login, method, change, async (who, verb, value) => {
        // The target partner is never deleted, so that the changes keep reaching a partner that exists.
        if (verb === 'DELETE' && who === target) return;
        const response = await send(verb, `/admin/v1/partners/${who}`, verb === 'PATCH' ? value : undefined);
        assertNeverServerError(response, { verb, who, value }, [200, 204, 400, 404, 422]);
      }),
      RUNS,
    );
    // The audit entries of those changes, a NUL login's among them, are all written.
    await t.gateway.runtime.auditTrail.flush();
    assert.equal(t.gateway.runtime.auditTrail.dropped(), 0);
  });

  it('never answers a 5xx to any bank list, bank, or BIC in the path', async () => {
    const list = fc.oneof(fc.record({ banks: fc.oneof(fc.array(bankLike, { maxLength: 6 }), loose) }, { requiredKeys: [] }), fc.jsonValue({ maxDepth: 3 }));
    const action = fc.oneof(
      list.map((value) => ['PUT', '/admin/v1/banks', value] as const),
      bankLike.map((value) => ['POST', '/admin/v1/banks', value] as const),
      fc.oneof(bicLike.map(encodeURIComponent), segment(), fc.constantFrom('%FF', '..', '04%00')).map((bic) => ['DELETE', `/admin/v1/banks/${bic}`, undefined] as const),
    );
    await fc.assert(
      fc.asyncProperty(action, async ([verb, url, value]) => {
        // 202: a removal that would leave fewer than BANKS_SYNC_MIN_BANKS banks (after a PUT of a short list) is held for approval.
        assertNeverServerError(await send(verb, url, value), { verb, url, value }, [200, 201, 202, 204, 400, 404, 405, 409, 422]);
      }),
      RUNS,
    );
    assert.equal(({} as Record<string, unknown>).polluted, undefined);
  });

  it('never answers a 5xx to any import file under any Content-Type and mode', async () => {
    const csv = fc
      .tuple(fc.array(fc.oneof(fc.constantFrom('bic', 'name', 'nameEn', 'sbpMemberId', '__proto__'), text(6)), { minLength: 1, maxLength: 4 }), fc.array(fc.array(fc.oneof(bicLike, text(20)), { maxLength: 4 }), { maxLength: 5 }))
      .map(([header, rows]) => [header.join(','), ...rows.map((row) => row.join(','))].join('\n'));
    const xml = fc
      .array(
        fc.record({
          bic: bicLike,
          name: text(20),
          ptType: fc.constantFrom('20', '30', ''),
          srvcs: fc.constantFrom('4', '5', '6', '3'),
          element: fc.constantFrom('BICDirectoryEntry', '__proto__', 'constructor', 'x'),
        }),
        { maxLength: 4 },
      )
      .map(
        (entries) =>
          `<?xml version="1.0" encoding="UTF-8"?><ED807 xmlns="urn:cbr-ru:ed:v2.0">${entries
            .map((entry) => `<${entry.element} BIC="${entry.bic.replace(/[<&"]/g, '')}"><ParticipantInfo NameP="${entry.name.replace(/[<&"]/g, '')}" PtType="${entry.ptType}" Srvcs="${entry.srvcs}" ParticipantStatus="PSAC"/></${entry.element}>`)
            .join('')}</ED807>`,
      );
    const file = fc.oneof(
      fc.tuple(fc.constantFrom('text/csv', 'text/csv; charset=windows-1251', 'text/csv; charset=nope'), csv),
      fc.tuple(fc.constantFrom('application/xml', 'text/xml'), xml),
      fc.tuple(fc.constant('application/json'), fc.oneof(fc.array(bankLike, { maxLength: 5 }), fc.jsonValue({ maxDepth: 3 })).map((value) => JSON.stringify(value))),
      fc.tuple(fc.oneof(fc.constantFrom('application/json', 'text/csv', 'application/xml', 'text/plain', 'application/octet-stream', ''), headerText(30)), text(200)),
    );
    await fc.assert(
      fc.asyncProperty(file, queryString(['mode', 'dryRun']), async ([type, content], query) => {
        const response = await t.admin.inject({
          method: 'POST',
          url: `/admin/v1/banks/import?${query}`,
          headers: { ...ADMIN, ...(type === '' ? {} : { 'content-type': type }) },
          payload: Buffer.from(content, 'utf8'),
        });
        // 202: a well-formed file whose merge would remove more banks than the guard allows is held for approval.
        assertNeverServerError(response, { type, query, content }, [200, 202, 400, 415, 422]);
      }),
      { numRuns: 200 },
    );
    assert.equal(({} as Record<string, unknown>).polluted, undefined);
  });

  it('never answers a 5xx to any audit query', async () => {
    const date = fc.date({ min: new Date('0000-01-01T00:00:00Z'), max: new Date('9999-12-31T23:59:59Z'), noInvalidDate: true }).map((value) => encodeURIComponent(value.toISOString()));
    const id = fc.oneof(fc.bigInt({ min: 0n, max: 9_999_999_999_999_999_999n }).map(String), fc.constantFrom('9223372036854775807', '9223372036854775808'));
    const query = fc.oneof(
      queryString(['partner', 'outcome', 'reason', 'action', 'from', 'to', 'cursor', 'after', 'limit']),
      fc
        .record({ partner: segment(), outcome: fc.constantFrom('success', 'failure', 'x'), from: date, to: date, cursor: id, after: id, limit: fc.integer({ min: -1, max: 1200 }).map(String) }, { requiredKeys: [] })
        .map((params) => Object.entries(params).map(([key, value]) => `${key}=${value}`).join('&')),
    );
    await fc.assert(
      fc.asyncProperty(query, async (search) => {
        assertNeverServerError(await send('GET', `/admin/v1/audit?${search}`), search, [200, 400, 422]);
      }),
      RUNS,
    );
  });

  it('never answers a 5xx to any key rotation body', async () => {
    const body = fc.oneof(fc.jsonValue({ maxDepth: 2 }), fc.record({ use: fc.oneof(fc.constantFrom('SIG', 'Enc', 'sig ', '', 'both'), loose) }, { requiredKeys: [] }));
    await fc.assert(
      fc.asyncProperty(body, async (value) => {
        assertNeverServerError(await send('POST', '/admin/v1/keys/rotate', value), value, [400, 415, 422]);
      }),
      { numRuns: 150 },
    );
  });

  it('refuses any other admin token, on every route, with the 401 in the JSON shape', async () => {
    const routes: Array<[Method, string]> = [
      ['GET', '/admin/v1/partners'],
      ['POST', '/admin/v1/partners'],
      ['PATCH', `/admin/v1/partners/${target}`],
      ['PUT', '/admin/v1/banks'],
      ['POST', '/admin/v1/banks/import'],
      ['GET', '/admin/v1/audit'],
      ['POST', '/admin/v1/keys/rotate'],
      ['GET', '/admin/v1/nowhere'],
    ];
    const authorization = fc.oneof(
      headerText(),
      headerText().map((token) => `Bearer ${token}`),
      fc.constantFrom(`Bearer ${TEST_ADMIN_TOKEN}x`, `Bearer ${TEST_ADMIN_TOKEN.slice(0, -1)}`, `Basic ${TEST_ADMIN_TOKEN}`, TEST_ADMIN_TOKEN, `Bearer  ${TEST_ADMIN_TOKEN} x`),
    );
    await fc.assert(
      fc.asyncProperty(authorization, fc.constantFrom(...routes), async (header, [method, url]) => {
        const response = await t.admin.inject({ method, url, headers: { authorization: header, ...JSON_TYPE }, payload: '{}' });
        assertNeverServerError(response, { header, url }, [401]);
        assert.equal(response.json().description_status, errors.adminUnauthorized().description);
      }),
      { numRuns: 200 },
    );
  });

  it('answers a path with broken percent-encoding with a JSON 400, and a path parameter over 200 characters with a JSON 414', async () => {
    for (const url of ['/admin/v1/partners/%FF', '/admin/v1/banks/%E0%A4%A', '/admin/v1/%C3%28']) {
      const response = await send('GET', url);
      assertNeverServerError(response, url, [400]);
      assert.equal(response.json().description_status, errors.badRequest().description);
    }
    for (const url of [`/admin/v1/partners/${'a'.repeat(201)}`, `/admin/v1/banks/${'0'.repeat(300)}`]) {
      const response = await send(url.includes('banks') ? 'DELETE' : 'GET', url);
      assertNeverServerError(response, url, [414]);
      assert.equal(response.json().description_status, errors.headersTooLarge().description);
    }
  });

  it('refuses __proto__ and constructor.prototype keys in every admin JSON body with a 400, and pollutes nothing', async () => {
    const poison = ['{"__proto__":{"polluted":"yes"}}', '{"constructor":{"prototype":{"polluted":"yes"}}}'];
    const routes: Array<[Method, string, (inner: string) => string]> = [
      ['POST', '/admin/v1/partners', (inner) => `{"login":"proto-test","password":"a long password 1","ipAllowlist":[],"rewardTypes":[],"x":${inner}}`],
      ['PATCH', `/admin/v1/partners/${target}`, (inner) => `{"status":"active","x":${inner}}`],
      ['PUT', '/admin/v1/banks', (inner) => `{"banks":[${inner}]}`],
      ['POST', '/admin/v1/banks', (inner) => inner],
      ['POST', '/admin/v1/keys/rotate', (inner) => `{"use":"sig","x":${inner}}`],
    ];
    for (const [method, url, wrap] of routes) {
      for (const inner of poison) {
        const response = await t.admin.inject({ method, url, headers: { ...ADMIN, ...JSON_TYPE }, payload: wrap(inner) });
        assertNeverServerError(response, { url, inner }, [400]);
        assert.equal(response.json().description_status, errors.forbiddenKey().description);
      }
    }
    // The import reads JSON itself: a __proto__ key there is an own key, never the prototype.
    for (const payload of ['{"__proto__":{"banks":[{"bic":"044525225","name":"x"}]}}', '[{"__proto__":{"polluted":"yes"},"bic":"044525225","name":"x"}]', '{"constructor":{"prototype":{"polluted":"yes"}}}']) {
      const response = await t.admin.inject({ method: 'POST', url: '/admin/v1/banks/import', headers: { ...ADMIN, ...JSON_TYPE }, payload });
      assertNeverServerError(response, payload, [200, 422]);
    }
    assert.equal(({} as Record<string, unknown>).polluted, undefined);
    assert.equal(Object.prototype.hasOwnProperty.call(Object.prototype, 'polluted'), false);
  });

  it('refuses a bank name with NUL or another control character with a 422 naming the field', async () => {
    for (const name of ['Bank\0', 'Ba\u0007nk', 'Bank\nName']) {
      for (const [method, url, payload] of [
        ['POST', '/admin/v1/banks', { bic: '044000001', name }],
        ['PUT', '/admin/v1/banks', { banks: [{ bic: '044000001', name: 'Fine' }, { bic: '044000002', name: 'Fine', nameEn: name }] }],
      ] as const) {
        const response = await send(method, url, payload);
        assertNeverServerError(response, { url, name }, [422]);
        assert.match(response.json().errors[0].field, /name/);
      }
    }
    const csv = await t.admin.inject({ method: 'POST', url: '/admin/v1/banks/import', headers: { ...ADMIN, 'content-type': 'text/csv' }, payload: 'bic,name\n044000001,"Bank\0"\n' });
    assertNeverServerError(csv, 'csv with NUL', [422]);
  });

  it('refuses import files that are not valid UTF-8 with a 422, and an unknown charset by name', async () => {
    const invalid = Buffer.from([0xff, 0xfe, 0xc3, 0x28]);
    const files: Array<[string, Buffer]> = [
      ['text/csv', Buffer.concat([Buffer.from('bic,name\n044525225,'), invalid])],
      ['application/json', Buffer.concat([Buffer.from('{"banks":[{"bic":"044525225","name":"'), invalid, Buffer.from('"}]}')])],
      ['application/xml', Buffer.concat([Buffer.from('<?xml version="1.0" encoding="UTF-8"?><ED807 xmlns="urn:cbr-ru:ed:v2.0">'), invalid, Buffer.from('</ED807>')])],
      ['text/csv; charset=no-such-charset', Buffer.from('bic,name\n')],
    ];
    for (const [type, payload] of files) {
      const response = await t.admin.inject({ method: 'POST', url: '/admin/v1/banks/import', headers: { ...ADMIN, 'content-type': type }, payload });
      assertNeverServerError(response, type, [422]);
      assert.match(response.json().errors[0].message, /not valid|character set/);
    }
  });

  it('refuses XML imports with __proto__ or constructor elements, or an external entity, with a 422', async () => {
    for (const payload of [
      '<ED807 xmlns="urn:cbr-ru:ed:v2.0"><__proto__ polluted="yes"/></ED807>',
      '<ED807 xmlns="urn:cbr-ru:ed:v2.0"><constructor><prototype polluted="yes"/></constructor></ED807>',
      '<?xml version="1.0"?><!DOCTYPE ED807 [<!ENTITY x SYSTEM "file:///etc/passwd">]><ED807 xmlns="urn:cbr-ru:ed:v2.0">&x;</ED807>',
    ]) {
      const response = await t.admin.inject({ method: 'POST', url: '/admin/v1/banks/import', headers: { ...ADMIN, 'content-type': 'application/xml' }, payload });
      assertNeverServerError(response, payload, [422]);
    }
    assert.equal(({} as Record<string, unknown>).polluted, undefined);
  });

  it('answers 100 000-element arrays on PUT /admin/v1/banks and on a JSON import with a 422 listing the first 100 entries and counting them all', async () => {
    const put = await send('PUT', '/admin/v1/banks', { banks: Array.from({ length: 100_000 }, () => 0) });
    assertNeverServerError(put, 'PUT 100 000', [422]);
    assert.deepEqual({ listed: put.json().errors.length, counted: put.json().errorCount }, { listed: 100, counted: 100_000 });
    const tooMany = await send('PUT', '/admin/v1/banks', { banks: Array.from({ length: 100_001 }, () => 0) });
    assertNeverServerError(tooMany, 'PUT 100 001', [422]);
    const duplicates = Array.from({ length: 100_000 }, () => ({ bic: '044525225', name: 'Same' }));
    const imported = await t.admin.inject({ method: 'POST', url: '/admin/v1/banks/import', headers: { ...ADMIN, ...JSON_TYPE }, payload: JSON.stringify(duplicates) });
    assertNeverServerError(imported, 'import 100 000', [422]);
    assert.deepEqual({ listed: imported.json().errors.length, counted: imported.json().errorCount }, { listed: 100, counted: 99_999 });
  });

  const get = (url: string) => t.admin.inject({ method: 'GET', url, headers: ADMIN });

  it('answers a NUL in a path parameter or an audit filter, and an audit id beyond bigint, with a JSON 400', async () => {
    for (const url of ['/admin/v1/partners/a%00b', '/admin/v1/audit?partner=a%00b', '/admin/v1/audit?cursor=9999999999999999999', '/admin/v1/audit?after=9223372036854775808']) {
      assertNeverServerError(await get(url), url, [400]);
    }
    // A BIC path parameter is held to BIC_PATTERN by the schema: refused before any database sees it.
    assertNeverServerError(await t.admin.inject({ method: 'DELETE', url: '/admin/v1/banks/04%00', headers: ADMIN }), 'bic', [422]);
  });

  it('answers an audit date-time JavaScript cannot read (a leap second) with a 422 naming the parameter, as any bad date-time', async () => {
    for (const [name, value] of [['to', '2016-12-31T23:59:60Z'], ['from', '2016-12-31T22:59:60-01:00']] as const) {
      const response = await get(`/admin/v1/audit?${name}=${encodeURIComponent(value)}`);
      assertNeverServerError(response, value, [422]);
      assert.equal(response.json().description_status, errors.validationFailed([{ field: name, message: PATTERN_PROBLEMS[BOUNDED_DATE_TIME_PATTERN]! }]).description);
      assert.deepEqual(response.json().errors.map((detail: { field: string }) => detail.field), [name]);
    }
    const garbled = await get('/admin/v1/audit?to=2016-12-31T25:00:00Z');
    assertNeverServerError(garbled, 'hour 25', [422]);
    assert.deepEqual(garbled.json().errors.map((detail: { field: string }) => detail.field), ['to']);
  });

  it('answers an audit date-time outside the years 0001 to 9999 in UTC with a 422 naming the parameter', async () => {
    for (const value of ['0000-01-01T00:00:00Z', '0001-01-01T00:00:00+01:00', '9999-12-31T23:59:59-23:59']) {
      const response = await get(`/admin/v1/audit?from=${encodeURIComponent(value)}`);
      assertNeverServerError(response, value, [422]);
      assert.deepEqual(response.json().errors, [{ field: 'from', message: PATTERN_PROBLEMS[BOUNDED_DATE_TIME_PATTERN] }]);
    }
    for (const value of ['0001-01-01T00:00:00Z', '9999-12-31T23:59:59.999Z']) {
      assertNeverServerError(await get(`/admin/v1/audit?to=${encodeURIComponent(value)}`), value, [200]);
    }
  });
});
