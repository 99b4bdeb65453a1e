import assert from 'node:assert/strict';
import { ADMIN_PARTNER_INVITATIONS_PATH, PORTAL_INVITATION_ACCEPT_PATH, PORTAL_INVITATION_OPTIONS_PATH, PORTAL_SIGN_IN_OPTIONS_PATH, PORTAL_SIGN_IN_PATH } from '@partner-gateway/contract/paths';
import type { InvitationCreated, PartnerUserRole } from '@partner-gateway/contract/partner-users';
import type { PasskeyOptions, PortalSession } from '@partner-gateway/contract/portal';
import { softwarePasskey } from './software-passkey.js';
import { TEST_ADMIN_TOKEN, type TestGateway } from './test-gateway.js';

/**
 * A partner user's browser over HTTP, for the portal's tests: the session cookie it was given, the CSRF token its
 * changes carry, and a software passkey. `url` is where the listener is; `origin` the PUBLIC_URL the passkey is for.
 *
 * @example
 * ```ts
 * const anna = await invitedUser(t, partner.login, 'anna@acme.example', 'partner-admin');
 * await anna.call('POST', SELF_KEYS_PATH, { keys: [jwk] });
 * ```
 */
export function portalBrowser(url: string, origin: string) {
  let cookie: string | undefined;
  let session: PortalSession | undefined;
  const passkey = softwarePasskey({ counting: true });
  const post = async (path: string, body?: unknown) =>
    fetch(`${url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', ...(cookie ? { cookie } : {}) }, body: JSON.stringify(body ?? {}) });
  const keep = async (response: Response) => {
    assert.equal(response.status, 200, await response.clone().text());
    const set = response.headers.get('set-cookie') ?? '';
    assert.ok(set.startsWith('__Host-partner-gateway-portal='), set);
    assert.match(set, /HttpOnly; Secure; SameSite=Strict/);
    cookie = set.split(';')[0];
    session = (await response.json()) as PortalSession;
    return session;
  };
  return {
    passkey,
    get session() {
      return session;
    },
    get cookie() {
      return cookie;
    },
    post,
    /** Accepts the invitation behind `link` with a new passkey: signed in. */
    async accept(link: string): Promise<PortalSession> {
      const token = new URL(link).hash.replace('#invitation=', '');
      const options = (await (await post(PORTAL_INVITATION_OPTIONS_PATH, { token })).json()) as PasskeyOptions;
      return keep(await post(PORTAL_INVITATION_ACCEPT_PATH, { token, response: passkey.create(options, origin) }));
    },
    async signIn(): Promise<PortalSession> {
      const options = (await (await post(PORTAL_SIGN_IN_OPTIONS_PATH)).json()) as PasskeyOptions;
      return keep(await post(PORTAL_SIGN_IN_PATH, { response: passkey.get(options, origin) }));
    },
    /** A call with the session's cookie and, unless `csrf` is false, its CSRF token. */
    async call(method: 'GET' | 'POST' | 'PUT' | 'DELETE', path: string, body?: unknown, options: { csrf?: boolean; origin?: string } = {}): Promise<Response> {
      const headers: Record<string, string> = { ...(cookie ? { cookie } : {}) };
      if (body !== undefined) headers['content-type'] = 'application/json';
      if (options.csrf !== false && session) headers['x-csrf-token'] = session.csrfToken;
      if (options.origin) headers.origin = options.origin;
      return fetch(`${url}${path}`, { method, headers, ...(body === undefined ? {} : { body: JSON.stringify(body) }) });
    },
  };
}

export type PortalBrowser = ReturnType<typeof portalBrowser>;

/** An operator's invitation for `name` at partner `login` (through the admin API), accepted in a new browser. */
export async function invitedUser(t: TestGateway & { url: string; publicUrl: string }, login: string, name: string, role: PartnerUserRole): Promise<PortalBrowser> {
  const response = await t.admin.inject({ method: 'POST', url: ADMIN_PARTNER_INVITATIONS_PATH.replace(':login', login), headers: { authorization: `Bearer ${TEST_ADMIN_TOKEN}` }, payload: { name, role } });
  assert.equal(response.statusCode, 201, response.body);
  const browser = portalBrowser(t.url, t.publicUrl);
  await browser.accept((response.json() as InvitationCreated).url);
  return browser;
}
