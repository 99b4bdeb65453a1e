import assert from 'node:assert/strict';
import { connect, type AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import fc from 'fast-check';
import { errors, texts } from '../errors.js';
import { encryptPassword } from '../../test/support/encrypt-password.js';
import { assertNeverServerError } from '../../test/support/error-shape.js';
import { testBackends } from '../../test/support/test-databases.js';
import { startTestGateway, TEST_ADMIN_TOKEN, type TestGateway } from '../../test/support/test-gateway.js';

// Property-based tests over every input of the public API: whatever a client sends, the answer is never a
// 5xx and never a stack trace, and every 4xx is `{"description_status": "..."}` as application/json.
// They run on PGlite only: what is tested is the HTTP layer, not the storage.

const BANKS = '/partner/provider/sbp/banks/';
const LOGIN = '/api/v1/login/';
const REFRESH = '/api/v1/token/refresh/';
const LOGOUT = '/api/v1/logout/';
const RUNS = { numRuns: 300 };

/** Any text, U+0000 included. */
const text = (maxLength = 40) => fc.string({ unit: 'binary', maxLength });

/** Characters Node accepts in a header value: tab, visible ASCII and space, and the obs-text bytes. */
const headerText = (maxLength = 60) =>
  fc
    .array(fc.oneof(fc.integer({ min: 0x20, max: 0x7e }), fc.integer({ min: 0x80, max: 0xff }), fc.constant(0x09)), { maxLength })
    .map((codes) => String.fromCharCode(...codes));

/** A query-string component as a client might send it: well encoded, raw ASCII, or broken percent-encoding. */
const queryComponent = fc.oneof(
  text().map(encodeURIComponent),
  fc.string({ unit: 'binary-ascii', maxLength: 20 }).map((value) => value.replace(/[\0-\x20#\x7f]/g, '')),
  fc.constantFrom('%', '%F', '%FF', '%C3%28', '%E0%A4%A', '%ED%A0%80', '%F4%90%80%80', '%C0%AF', '%25', '+', '%2B', '%26', '%3D', '[]', '[0]'),
);

const base64url = (maxLength = 64) => fc.uint8Array({ maxLength }).map((bytes) => Buffer.from(bytes).toString('base64url'));
const b64json = (value: unknown) => Buffer.from(JSON.stringify(value) ?? 'null').toString('base64url');
const jsonish = fc.jsonValue({ maxDepth: 2 });
const utf8 = (value: string) => Buffer.from(value, 'utf8');

describe('bad input on the public API (pglite)', () => {
  let t: TestGateway;
  let encKid: string;
  let sigKid: string;
  before(async () => {
    t = await startTestGateway(testBackends()[0]!);
    const keys = (await t.app.inject({ method: 'GET', url: '/.well-known/jwks.json' })).json().keys as Array<{ kid: string; use: string }>;
    encKid = keys.find((key) => key.use === 'enc')!.kid;
    sigKid = keys.find((key) => key.use === 'sig')!.kid;
  });
  after(() => t.close());

  /** A compact-JWE-shaped partnerPassword: a header close to the real one, garbage everywhere else. */
  const jweLike = () =>
    fc
      .tuple(
        fc.record(
          {
            alg: fc.oneof(fc.constant('RSA-OAEP-256'), fc.constantFrom('RSA-OAEP', 'dir', 'none', 'RSA1_5'), jsonish),
            enc: fc.oneof(fc.constant('A256GCM'), fc.constantFrom('A128GCM', 'A256CBC-HS512'), jsonish),
            kid: fc.oneof(fc.constant(encKid), fc.constant(sigKid), fc.constantFrom('__proto__', 'constructor', 'toString'), jsonish),
            iat: fc.oneof(fc.constant(Math.floor(Date.now() / 1000)), fc.integer(), fc.double(), fc.bigInt().map(String), jsonish),
            jti: fc.oneof(fc.uuid(), text(), jsonish),
            zip: fc.constant('DEF'),
            crit: fc.array(text(8), { maxLength: 2 }),
          },
          { requiredKeys: [] },
        ),
        fc.oneof(base64url(300), fc.constant('')),
        base64url(16),
        base64url(64),
        base64url(24),
        fc.boolean(),
      )
      .map(([header, key, iv, ciphertext, tag, garbleHeader]) =>
        [garbleHeader ? Buffer.from(JSON.stringify(header)).toString('base64') : b64json(header), key, iv, ciphertext, tag].join('.'),
      );

  /** A JWT-shaped bearer token: a header close to ours (ES256, at+jwt, our kid), any claims, any signature. */
  const jwtLike = () =>
    fc
      .tuple(
        fc.record(
          {
            alg: fc.oneof(fc.constantFrom('ES256', 'none', 'HS256', 'RS256', 'ES512'), jsonish),
            typ: fc.oneof(fc.constantFrom('at+jwt', 'JWT'), jsonish),
            kid: fc.oneof(fc.constant(sigKid), fc.constant(encKid), fc.constantFrom('__proto__', 'constructor'), jsonish),
            crit: fc.array(text(8), { maxLength: 2 }),
            jwk: jsonish,
          },
          { requiredKeys: [] },
        ),
        fc.oneof(jsonish, fc.record({ sub: jsonish, iss: jsonish, aud: jsonish, exp: jsonish, iat: jsonish, client_id: jsonish }, { requiredKeys: [] })),
        fc.oneof(base64url(64), fc.constant('')),
      )
      .map(([header, claims, signature]) => [b64json(header), b64json(claims), signature].join('.'));

  const authorization = () =>
    fc.oneof(
      jwtLike().map((token) => `Bearer ${token}`),
      headerText().map((token) => `Bearer ${token}`),
      fc.tuple(fc.constantFrom('Bearer', 'bearer', 'BEARER', 'Basic', 'Bearer  ', 'Token', ''), headerText()).map(([scheme, rest]) => `${scheme} ${rest}`),
      headerText(),
    );

  const queryString = () =>
    fc
      .array(
        fc.tuple(
          fc.oneof(
            fc.constantFrom('partnerName', 'partnerPassword', 'useAuthByCert', '__proto__', 'constructor', 'prototype', 'toString', 'hasOwnProperty', 'partnerName[]', '__proto__[polluted]'),
            queryComponent,
          ),
          fc.oneof(queryComponent, jweLike().map(encodeURIComponent), fc.constantFrom('Y', 'N', 'y', '')),
          fc.boolean(),
        ),
        { maxLength: 6 },
      )
      .map((pairs) => pairs.map(([key, value, bare]) => (bare ? key : `${key}=${value}`)).join('&'));

  it('never answers a 5xx to any query string on the banks operation', async () => {
    await fc.assert(
      fc.asyncProperty(queryString(), fc.ipV4(), async (query, remoteAddress) => {
        const response = await t.app.inject({ method: 'POST', url: `${BANKS}?${query}`, remoteAddress });
        assertNeverServerError(response, query, [401, 422, 429]);
      }),
      RUNS,
    );
    assert.equal(({} as Record<string, unknown>).polluted, undefined);
  });

  it('never answers a 5xx to any JWE-shaped partnerPassword, and refuses each with the 401', async () => {
    await fc.assert(
      fc.asyncProperty(jweLike(), text(20).filter(Boolean), fc.ipV4(), async (jwe, partnerName, remoteAddress) => {
        const url = `${BANKS}?${new URLSearchParams({ partnerName, partnerPassword: jwe, useAuthByCert: 'Y' })}`;
        const response = await t.app.inject({ method: 'POST', url, remoteAddress });
        assertNeverServerError(response, jwe, /^[A-Za-z0-9_-]+(\.[A-Za-z0-9_-]*){4}$/.test(jwe) ? [401, 429] : [401, 422, 429]);
      }),
      { numRuns: 200 },
    );
  });

  it('never answers a 5xx to any Authorization header on the banks operation and logout, and refuses each with the 401', async () => {
    await fc.assert(
      fc.asyncProperty(authorization(), fc.constantFrom(BANKS, LOGOUT), fc.ipV4(), async (header, url, remoteAddress) => {
        const response = await t.app.inject({ method: 'POST', url, headers: { authorization: header }, remoteAddress });
        assertNeverServerError(response, header, [401]);
        assert.equal(response.headers['www-authenticate'], 'Bearer error="invalid_token"');
      }),
      RUNS,
    );
  });

  it('never answers a 5xx to any JSON body on login and refresh', async () => {
    const loose = fc.oneof(jsonish, text(300), fc.integer(), fc.constant(null), fc.array(jsonish, { maxLength: 3 }));
    const body = fc.oneof(
      fc.jsonValue({ maxDepth: 4 }),
      fc.record({ login: loose, password: loose }, { requiredKeys: [] }),
      fc.record({ login: text(300), password: text(1100) }),
      fc.record({ refresh_token: loose }, { requiredKeys: [] }),
      fc.dictionary(fc.constantFrom('login', 'password', 'refresh_token', 'constructor', 'toString', 'valueOf', 'hasOwnProperty'), loose),
    );
    await fc.assert(
      fc.asyncProperty(body, fc.constantFrom(LOGIN, REFRESH), fc.ipV4(), async (value, url, remoteAddress) => {
        const response = await t.app.inject({ method: 'POST', url, headers: { 'content-type': 'application/json' }, payload: JSON.stringify(value), remoteAddress });
        assertNeverServerError(response, value, [400, 401, 413, 422, 429]);
      }),
      RUNS,
    );
    assert.equal(({} as Record<string, unknown>).polluted, undefined);
  });

  it('never answers a 5xx to any body bytes under any Content-Type, on every POST route', async () => {
    const bytes = fc.oneof(
      fc.uint8Array({ maxLength: 200 }).filter((value) => !value.includes(0)),
      text(200).map(utf8),
      fc.jsonValue({ maxDepth: 3 }).chain((value) =>
        fc.nat({ max: JSON.stringify(value).length }).map((cut) => utf8(JSON.stringify(value).slice(0, cut))),
      ),
      fc.tuple(fc.jsonValue({ maxDepth: 2 }), fc.uint8Array({ minLength: 1, maxLength: 4 })).map(([value, junk]) => Buffer.concat([utf8(JSON.stringify(value)), junk])),
    );
    const contentType = fc.option(
      fc.oneof(
        fc.constantFrom(
          'application/json',
          'application/json; charset=utf-8',
          'application/json; charset=latin1',
          'application/json; charset=utf-16le',
          'application/json;',
          'APPLICATION/JSON',
          'application/vnd.api+json',
          'text/plain',
          'text/json',
          'application/x-www-form-urlencoded',
          'multipart/form-data; boundary=x',
          'application/*',
          '*/*',
          '',
        ),
        headerText(40),
      ),
      { nil: undefined },
    );
    await fc.assert(
      fc.asyncProperty(bytes, contentType, fc.constantFrom(LOGIN, REFRESH, LOGOUT, BANKS), fc.ipV4(), async (payload, type, url, remoteAddress) => {
        const response = await t.app.inject({ method: 'POST', url, headers: type === undefined ? {} : { 'content-type': type }, payload, remoteAddress });
        assertNeverServerError(response, { url, type, payload: payload.toString('latin1') }, [400, 401, 413, 415, 422, 429]);
      }),
      RUNS,
    );
  });

  it('never answers a 5xx to any path and method, and answers every 4xx in the JSON shape', async () => {
    const segment = fc.oneof(
      fc.constantFrom('api', 'v1', 'login', 'token', 'refresh', 'logout', 'partner', 'provider', 'sbp', 'banks', '.well-known', 'jwks.json', 'docs', 'static', 'json', 'openapi.json', 'healthz', 'readyz', 'admin', '..', '.', '%2e%2e', '%2F', '%5C', 'index.html', ''),
      queryComponent,
    );
    // light-my-request parses the path as a WHATWG URL, which reads one starting `//` or `/\` as scheme-relative
    // (another host, or an Invalid URL thrown by inject itself); those go over a real socket in the next test.
    const path = fc
      .tuple(fc.array(segment, { minLength: 1, maxLength: 6 }), fc.boolean(), fc.option(queryString(), { nil: undefined }))
      .map(([segments, slash, query]) => `/${segments.join('/')}${slash ? '/' : ''}${query === undefined ? '' : `?${query}`}`)
      .filter((url) => !/^\/[/\\]/.test(url));
    const method = fc.constantFrom('GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS', 'HEAD') as fc.Arbitrary<'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE' | 'OPTIONS' | 'HEAD'>;
    await fc.assert(
      fc.asyncProperty(path, method, fc.ipV4(), async (url, verb, remoteAddress) => {
        const response = await t.app.inject({ method: verb, url, remoteAddress });
        if (verb === 'HEAD') {
          assert.ok(response.statusCode < 500, `${verb} ${url} -> ${response.statusCode}`);
          if (response.statusCode >= 400) assert.match(String(response.headers['content-type']), /^application\/json/, `${verb} ${url}`);
          return;
        }
        assertNeverServerError(response, `${verb} ${url}`);
      }),
      RUNS,
    );
  });

  it('answers a path starting like a scheme-relative URL (//, /\\) with a JSON 404 on a real listener', async () => {
    await t.app.listen({ host: '127.0.0.1', port: 0 });
    const { port } = t.app.server.address() as AddressInfo;
    for (const path of ['//', '/\\', '//evil.example/x', '/\\evil.example', '/\\/api/v1/login/', '//api/v1/login/', '//partner/provider/sbp/banks/']) {
      const socket = connect(port, '127.0.0.1');
      let answer = '';
      socket.on('data', (chunk) => (answer += String(chunk)));
      socket.write(`GET ${path} HTTP/1.1\r\nHost: gateway\r\nConnection: close\r\n\r\n`);
      await new Promise((resolve) => socket.on('close', resolve));
      assert.match(answer, /^HTTP\/1\.1 404 /, path);
      assert.deepEqual(JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4)), { description_status: errors.notFound().description }, path);
    }
  });

  it('never answers a 5xx to any extra header on login and on the banks operation', async () => {
    const name = fc.oneof(
      fc.constantFrom('accept', 'accept-encoding', 'accept-version', 'accept-language', 'x-forwarded-for', 'x-forwarded-proto', 'x-forwarded-host', 'forwarded', 'x-real-ip', 'x-request-id', 'request-id', 'content-encoding', 'expect', 'origin', 'cookie', 'range', 'if-none-match', 'if-modified-since', 'host', 'user-agent', 'traceparent', 'x-http-method-override'),
      fc.stringMatching(/^[a-z][a-z0-9-]{0,20}$/),
    );
    const headers = fc.dictionary(name, headerText(80), { maxKeys: 5 });
    await fc.assert(
      fc.asyncProperty(headers, fc.constantFrom(LOGIN, BANKS), fc.ipV4(), async (extra, url, remoteAddress) => {
        const response = await t.app.inject({
          method: 'POST',
          url,
          headers: { ...extra, 'content-type': 'application/json' },
          payload: url === LOGIN ? '{"login":"nobody-at-all"}' : '{}',
          remoteAddress,
        });
        assertNeverServerError(response, extra, [400, 404, 413, 415, 422, 429]);
      }),
      RUNS,
    );
  });

  it('answers invalid UTF-8 in a query string like any other bad value: 422 or 401, as JSON', async () => {
    const cases: Array<[string, number, string]> = [
      ['partnerName=%FF%FE&partnerPassword=%C3%28&useAuthByCert=Y', 422, texts.notEncrypted],
      ['partnerName=a&partnerPassword=x&useAuthByCert=%FF', 422, errors.parameterInvalid('useAuthByCert').description],
      ['partnerName=%ED%A0%80&partnerPassword=a.b.c.d.e&useAuthByCert=Y', 401, texts.unauthorized],
      ['partnerName=%C0%AF&partnerPassword=%E0%A4%A.b.c.d.e&useAuthByCert=Y', 422, texts.notEncrypted],
      ['%FF=%FF&partnerName=a', 422, errors.parameterMissing('partnerPassword').description],
    ];
    for (const [query, status, description] of cases) {
      const response = await t.app.inject({ method: 'POST', url: `${BANKS}?${query}` });
      assertNeverServerError(response, query, [status]);
      assert.equal(response.json().description_status, description, query);
    }
  });

  it('answers a login body that is not valid UTF-8 with a 400, 401 or 422, as JSON', async () => {
    const bodies = [
      Buffer.concat([utf8('{"login":"'), Buffer.from([0xff, 0xfe]), utf8('","password":"x"}')]),
      Buffer.concat([utf8('{"login":"a","password":"'), Buffer.from([0xc3, 0x28, 0xed, 0xa0, 0x80]), utf8('"}')]),
      Buffer.concat([utf8('{"login"'), Buffer.from([0xc0, 0xaf]), utf8(':"a"}')]),
      Buffer.from([0xef, 0xbb, 0xbf, 0x7b, 0x7d]),
      Buffer.from([0xfe, 0xff, 0x00, 0x7b, 0x00, 0x7d]),
    ];
    for (const payload of bodies) {
      for (const url of [LOGIN, REFRESH]) {
        const response = await t.app.inject({ method: 'POST', url, headers: { 'content-type': 'application/json' }, payload });
        assertNeverServerError(response, payload.toString('hex'), [400, 401, 422]);
      }
    }
  });

  it('answers a login or a partnerName containing NUL as an unknown login, and keeps writing the audit trail', async () => {
    const partner = await t.addPartner();
    const jwks = (await t.app.inject({ method: 'GET', url: '/.well-known/jwks.json' })).json();
    const jwe = await encryptPassword(partner.password, jwks);
    const refused = [
      await t.app.inject({ method: 'POST', url: LOGIN, payload: { login: `${partner.login}\0`, password: partner.password } }),
      await t.app.inject({ method: 'POST', url: LOGIN, payload: { login: `${partner.login}\ud800`, password: partner.password } }),
      await t.app.inject({ method: 'POST', url: `${BANKS}?partnerName=a%00b&partnerPassword=a.b.c.d.e&useAuthByCert=Y` }),
      await t.app.inject({ method: 'POST', url: `${BANKS}?${new URLSearchParams({ partnerName: `${partner.login}\0`, partnerPassword: jwe, useAuthByCert: 'Y' })}` }),
    ];
    for (const [index, response] of refused.entries()) {
      assertNeverServerError(response, `refused[${index}]`, [401]);
      assert.equal(response.json().description_status, texts.unauthorized);
    }
    const later = await t.app.inject({ method: 'POST', url: LOGIN, payload: { login: partner.login, password: partner.password } });
    assert.equal(later.statusCode, 200);
    const trail = await t.admin.inject({ method: 'GET', url: '/admin/v1/audit?limit=5', headers: { authorization: `Bearer ${TEST_ADMIN_TOKEN}` } });
    assert.equal(trail.statusCode, 200);
    assert.deepEqual(
      trail.json().entries.map((entry: { action: string; status: number; partner: string }) => [entry.action, entry.status, entry.partner]),
      [
        ['login', 200, partner.login],
        ['banks', 401, `${partner.login}\ufffd`],
        ['banks', 401, 'a\ufffdb'],
        ['login', 401, `${partner.login}\ufffd`],
        ['login', 401, `${partner.login}\ufffd`],
      ],
    );
    // The search's own entry (audit.search) is queued behind it: written with the next batch.
    await t.gateway.admin.audit.flush();
    assert.equal(t.gateway.runtime.auditTrail.pending(), 0);
    assert.equal(t.gateway.runtime.auditTrail.dropped(), 0);
  });

  it('answers a path with broken percent-encoding with a JSON 400, not the framework default body', async () => {
    for (const url of [`${BANKS}%FF`, '/partner/%E0%A4%A/sbp/banks/', `${LOGIN}%`, '/.well-known/%C3%28', '/docs/%FF']) {
      for (const method of ['GET', 'POST'] as const) {
        const response = await t.app.inject({ method, url });
        assertNeverServerError(response, url, [400]);
        assert.deepEqual(response.json(), { description_status: errors.badRequest().description }, url);
      }
    }
  });

  it('answers each of the three banks parameters given twice with a 422 naming it, even with equal values', async () => {
    const base = { partnerName: 'a', partnerPassword: 'x', useAuthByCert: 'Y' };
    for (const name of Object.keys(base) as Array<keyof typeof base>) {
      for (const second of [base[name], 'other']) {
        const query = `${new URLSearchParams(base)}&${name}=${second}`;
        const response = await t.app.inject({ method: 'POST', url: `${BANKS}?${query}` });
        assertNeverServerError(response, query, [422]);
        assert.equal(response.json().description_status, errors.parameterInvalid(name).description, query);
      }
    }
    const thrice = await t.app.inject({ method: 'POST', url: `${BANKS}?partnerName=a&partnerName=b&partnerName=c` });
    assert.equal(thrice.json().description_status, errors.parameterInvalid('partnerName').description);
  });

  it('refuses __proto__ and constructor.prototype keys in JSON bodies with a 400, and pollutes nothing', async () => {
    const bodies = [
      '{"__proto__":{"polluted":"yes"},"login":"a","password":"b"}',
      '{"login":"a","password":"b","__proto__":{"polluted":"yes"}}',
      '{"login":{"__proto__":{"polluted":"yes"}},"password":"b"}',
      '{"constructor":{"prototype":{"polluted":"yes"}},"login":"a","password":"b"}',
      '[{"__proto__":{"polluted":"yes"}}]',
      '{"refresh_token":"x","__proto__":{"polluted":"yes"}}',
      '{"\\u005f_proto__":{"polluted":"yes"}}',
    ];
    for (const payload of bodies) {
      for (const url of [LOGIN, REFRESH]) {
        const response = await t.app.inject({ method: 'POST', url, headers: { 'content-type': 'application/json' }, payload });
        assertNeverServerError(response, payload, [400]);
        assert.equal(response.json().description_status, errors.forbiddenKey().description);
      }
    }
    // A constructor key that is not constructor.prototype is only an unknown field.
    const plain = await t.app.inject({ method: 'POST', url: LOGIN, payload: { constructor: 'x', login: '', password: 'b' } });
    assertNeverServerError(plain, 'constructor', [422]);
    const query = await t.app.inject({ method: 'POST', url: `${BANKS}?__proto__[polluted]=yes&constructor[prototype][polluted]=yes&__proto__=x` });
    assertNeverServerError(query, 'query', [422]);
    assert.equal(({} as Record<string, unknown>).polluted, undefined);
    assert.equal(Object.prototype.hasOwnProperty.call(Object.prototype, 'polluted'), false);
  });

  it('answers 100 000-element JSON arrays on login and refresh with the 413, as JSON', async () => {
    const array = JSON.stringify(Array.from({ length: 100_000 }, () => 0));
    for (const [url, payload] of [
      [LOGIN, array],
      [LOGIN, `{"login":${array},"password":"x"}`],
      [REFRESH, `{"refresh_token":${array}}`],
    ] as const) {
      const response = await t.app.inject({ method: 'POST', url, headers: { 'content-type': 'application/json' }, payload });
      assertNeverServerError(response, url, [413]);
      assert.equal(response.json().description_status, errors.payloadTooLarge().description);
    }
  });

  it('answers deeply nested JSON on login without a 5xx', async () => {
    const payload = `${'['.repeat(20_000)}${']'.repeat(20_000)}`;
    const response = await t.app.inject({ method: 'POST', url: LOGIN, headers: { 'content-type': 'application/json' }, payload });
    assertNeverServerError(response, 'nested', [400, 422]);
  });
});
