import assert from 'node:assert/strict';
import { createHash, randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { SignJWT } from 'jose';
import { texts } from '../../src/errors.js';
import { startListeningGateway } from '../support/key-partner.js';
import { CLIENT_ASSERTION_TYPE, FORM_HEADERS, clientAssertion, dpopProof, form, registerKeys, testKey, type TestKey } from '../support/oauth-client.js';
import { testBackends } from '../support/test-databases.js';
import type { TestGateway } from '../support/test-gateway.js';

// Issue 26, "failure reasons": every check of a DPoP proof is refused for its own reason, recorded in the log line
// and the audit entry, and named in the OAuth error_description (the token endpoint's body; a resource's and the
// seed's operations' WWW-Authenticate), while the seed's operations keep the specification's 401 body exactly.

const TOKEN_PATH = '/api/v1/oauth/token';
const BANKS_PATH = '/partner/provider/sbp/banks/';
const LOGIN_PATH = '/api/v1/login/';

interface Fault {
  name: string;
  reason: string;
  /** What the error_description must say. */
  describes: RegExp;
  /** A proof with this one fault for `method` `url` (with `ath` of `accessToken` when given). */
  proof(key: TestKey, url: string, accessToken?: string): Promise<string>;
}

const b64 = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
const publicJwk = ({ publicJwk: { kid: _kid, ...jwk } }: TestKey) => jwk;
const claims = (url: string, accessToken: string | undefined, extra: Record<string, unknown> = {}) => ({
  htm: 'POST',
  htu: url,
  iat: Math.floor(Date.now() / 1000),
  jti: randomUUID(),
  ...(accessToken ? { ath: createHash('sha256').update(accessToken).digest('base64url') } : {}),
  ...extra,
});

const FAULTS: Fault[] = [
  {
    name: 'typ JWT (its signature valid)',
    reason: 'dpop_typ_invalid',
    describes: /^The DPoP proof's typ must be dpop\+jwt$/,
    proof: async (key, url, token) => new SignJWT(claims(url, token)).setProtectedHeader({ alg: key.alg, typ: 'JWT', jwk: publicJwk(key) }).sign(key.privateKey),
  },
  {
    name: 'alg HS256',
    reason: 'dpop_alg_refused',
    describes: /alg must be one of ES256, EdDSA, Ed25519, PS256/,
    proof: async (_key, url, token) => new SignJWT(claims(url, token)).setProtectedHeader({ alg: 'HS256', typ: 'dpop+jwt', jwk: { kty: 'oct', k: 'AAAA' } as never }).sign(new Uint8Array(32)),
  },
  {
    name: 'a private key in its jwk',
    reason: 'dpop_key_refused',
    describes: /public key as jwk, without private members/,
    proof: async (key, url, token) => new SignJWT(claims(url, token)).setProtectedHeader({ alg: key.alg, typ: 'dpop+jwt', jwk: { ...publicJwk(key), d: 'AAAA' } as never }).sign(key.privateKey),
  },
  {
    name: 'a signature by another key than its jwk',
    reason: 'dpop_signature_invalid',
    describes: /signature does not verify with the jwk in its header/,
    proof: async (key, url, token) => {
      const other = await testKey();
      return new SignJWT(claims(url, token)).setProtectedHeader({ alg: key.alg, typ: 'dpop+jwt', jwk: publicJwk(key) }).sign(other.privateKey);
    },
  },
  {
    name: 'no jti',
    reason: 'dpop_jti_invalid',
    describes: /jti must be 1 to 128 printable ASCII characters/,
    proof: (key, url, token) => dpopProof(key, 'POST', url, { ...(token ? { accessToken: token } : {}), claims: { jti: undefined } }),
  },
  {
    name: 'htm GET',
    reason: 'dpop_htm_mismatch',
    describes: /htm must be POST/,
    proof: (key, url, token) => dpopProof(key, 'GET', url, token ? { accessToken: token } : {}),
  },
  {
    name: 'htu of another URL',
    reason: 'dpop_htu_mismatch',
    describes: /htu must be http:\/\/127\.0\.0\.1:\d+\/[^ ]*, this request's URL/,
    proof: (key, url, token) => dpopProof(key, 'POST', `${url}elsewhere`, token ? { accessToken: token } : {}),
  },
  {
    name: 'an iat ten minutes old',
    reason: 'dpop_iat_out_of_window',
    describes: /iat must be an integer within 120 seconds before and 30 seconds after the server's time/,
    proof: (key, url, token) => dpopProof(key, 'POST', url, { ...(token ? { accessToken: token } : {}), now: Date.now() - 600_000 }),
  },
  {
    name: 'a malformed token in place of a proof',
    reason: 'malformed_dpop_proof',
    describes: /^The DPoP proof must be one compact JWS/,
    proof: async () => `${b64({ typ: 'dpop+jwt' })}.${b64({})}`,
  },
];

for (const backend of testBackends()) {
  describe(`a DPoP proof's refusal names its true fault, on ${backend.name}`, () => {
    let t: TestGateway & { url: string };
    let partner: { login: string; password: string; id: string };
    let key: TestKey;
    before(async () => {
      t = await startListeningGateway(backend);
      partner = await t.addPartner();
      key = await testKey();
      await registerKeys(t.gateway, partner.login, [key]);
    });
    after(() => t.close());

    const tokenRequest = async (proof: string) =>
      fetch(t.url + TOKEN_PATH, {
        method: 'POST',
        headers: { ...FORM_HEADERS, dpop: proof },
        body: form({ grant_type: 'client_credentials', client_assertion_type: CLIENT_ASSERTION_TYPE, client_assertion: await clientAssertion(key, partner.login, t.url) }),
      });
    // A refused token names no partner until it is verified: the latest entry of the action is this test's.
    const auditedReason = async (action: string) => {
      await t.gateway.admin.audit.flush();
      const entries = await t.gateway.admin.audit.query({ action } as never);
      return entries.sort((a, b) => +new Date(b.at) - +new Date(a.at))[0]?.reason;
    };
    const loggedReason = (requestPath: string) =>
      t.logs
        .map((line) => JSON.parse(line) as { url?: string; authFailure?: string })
        .filter((line) => line.url?.startsWith(requestPath))
        .at(-1)?.authFailure;

    for (const fault of FAULTS) {
      it(`when a token request's proof has ${fault.name}, then 400 invalid_dpop_proof says so and ${fault.reason} is recorded`, async () => {
        const dpopKey = await testKey();
        const response = await tokenRequest(await fault.proof(dpopKey, t.url + TOKEN_PATH));
        assert.equal(response.status, 400);
        const body = (await response.json()) as { error: string; error_description: string; description_status: string };
        assert.equal(body.error, 'invalid_dpop_proof');
        assert.match(body.error_description, fault.describes);
        assert.equal(body.description_status, texts.unauthorized);
        assert.equal(await auditedReason('token'), fault.reason);
        assert.equal(loggedReason(TOKEN_PATH), fault.reason);
      });

      it(`when a banks call's proof has ${fault.name}, then the seed's 401 body is unchanged, its challenge says so and ${fault.reason} is recorded`, async () => {
        const dpopKey = await testKey();
        const issued = await tokenRequest(await dpopProof(dpopKey, 'POST', t.url + TOKEN_PATH));
        assert.equal(issued.status, 200);
        const token = ((await issued.json()) as { access_token: string }).access_token;
        const response = await fetch(t.url + BANKS_PATH, { method: 'POST', headers: { authorization: `DPoP ${token}`, dpop: await fault.proof(dpopKey, t.url + BANKS_PATH, token) } });
        assert.equal(response.status, 401);
        assert.equal(await response.text(), JSON.stringify({ description_status: texts.unauthorized }));
        const challenge = response.headers.get('www-authenticate') ?? '';
        const [, description] = /^DPoP error="invalid_dpop_proof", error_description="((?:[^"\\]|\\.)*)"$/.exec(challenge) ?? [];
        assert.ok(description !== undefined, challenge);
        assert.match(description.replace(/\\(.)/g, '$1'), fault.describes);
        assert.equal(await auditedReason('banks'), fault.reason);
        assert.equal(loggedReason(BANKS_PATH), fault.reason);
      });
    }

    it("when a proof is replayed, signed by another key than the token's or missing, then each is refused for that reason", async () => {
      const dpopKey = await testKey();
      const proof = await dpopProof(dpopKey, 'POST', t.url + TOKEN_PATH);
      assert.equal((await tokenRequest(proof)).status, 200);
      const replayed = await tokenRequest(proof);
      assert.equal(replayed.status, 400);
      assert.match(((await replayed.json()) as { error_description: string }).error_description, /was used before/);
      assert.equal(await auditedReason('token'), 'dpop_proof_replayed');

      const token = ((await (await tokenRequest(await dpopProof(dpopKey, 'POST', t.url + TOKEN_PATH))).json()) as { access_token: string }).access_token;
      const stranger = await testKey();
      const response = await fetch(t.url + BANKS_PATH, { method: 'POST', headers: { authorization: `DPoP ${token}`, dpop: await dpopProof(stranger, 'POST', t.url + BANKS_PATH, { accessToken: token }) } });
      assert.equal(response.status, 401);
      assert.match(response.headers.get('www-authenticate') ?? '', /error_description="The DPoP proof is signed by another key than the one the token is bound to"/);
      assert.equal(await auditedReason('banks'), 'dpop_key_mismatch');

      const unproven = await fetch(t.url + BANKS_PATH, { method: 'POST', headers: { authorization: `DPoP ${token}` } });
      assert.equal(unproven.status, 401);
      assert.match(unproven.headers.get('www-authenticate') ?? '', /error_description="The DPoP proof is missing: a DPoP-bound token comes with a DPoP header"/);
      assert.equal(await auditedReason('banks'), 'dpop_required');
    });

    it("when a login's proof has typ JWT, then the seed's 401 body is unchanged and dpop_typ_invalid is recorded", async () => {
      const dpopKey = await testKey();
      const response = await fetch(t.url + LOGIN_PATH, {
        method: 'POST',
        headers: { 'content-type': 'application/json', dpop: await FAULTS[0]!.proof(dpopKey, t.url + LOGIN_PATH) },
        body: JSON.stringify({ login: partner.login, password: partner.password }),
      });
      assert.equal(response.status, 401);
      assert.equal(await response.text(), JSON.stringify({ description_status: texts.unauthorized }));
      assert.match(response.headers.get('www-authenticate') ?? '', /^DPoP error="invalid_dpop_proof", error_description="The DPoP proof's typ must be dpop\+jwt"$/);
      assert.equal(await auditedReason('login'), 'dpop_typ_invalid');
    });
  });
}
