/**
 * An OpenID provider for single sign-on tests (node-oidc-provider with its development login and consent pages,
 * on a loopback port) whose people and groups a test changes as an identity provider's administrator would, and a
 * sign-in driven over HTTP without a browser: the gateway's /sso/start, the provider's pages as a user fills them,
 * and the gateway's callback.
 */
import type { Server } from 'node:http';
import Provider from 'oidc-provider';
import type { FastifyInstance } from 'fastify';
import { freePort } from './free-port.js';

export const TEST_OIDC_CLIENT = { id: 'gateway-console', secret: 'a-client-secret-for-the-console-test' };
export const TEST_ROLE_MAP = 'gateway-security=security,gateway-operators=operator,gateway-viewers=viewer';

export interface OidcTestProvider {
  issuer: string;
  /** The provider's people: their name and groups, changed by the test (read at every sign-in). */
  accounts: Record<string, { name: string; groups: string[] }>;
  /** The gateway's settings for this provider. */
  env: Record<string, string>;
  close(): Promise<void>;
}

/** A provider whose one client redirects to `<adminBase>/sso/callback`. */
export async function startOidcTestProvider(adminBase: string, accounts: OidcTestProvider['accounts']): Promise<OidcTestProvider> {
  const port = await freePort();
  const issuer = `http://127.0.0.1:${port}`;
  const provider = new Provider(issuer, {
    clients: [
      {
        client_id: TEST_OIDC_CLIENT.id,
        client_secret: TEST_OIDC_CLIENT.secret,
        redirect_uris: [`${adminBase}/sso/callback`],
        grant_types: ['authorization_code'],
        response_types: ['code'],
        token_endpoint_auth_method: 'client_secret_basic',
      },
    ],
    claims: { openid: ['sub'], profile: ['preferred_username', 'groups'] },
    findAccount: async (_context, id) => ({
      accountId: id,
      claims: async () => ({ sub: id, preferred_username: accounts[id]?.name ?? id, groups: accounts[id]?.groups ?? [] }),
    }),
    pkce: { required: () => true },
    features: { devInteractions: { enabled: true } },
    cookies: { keys: ['a-cookie-key-for-the-test-provider'] },
  });
  const server: Server = provider.listen(port);
  return {
    issuer,
    accounts,
    env: {
      ADMIN_PUBLIC_URL: adminBase,
      OIDC_ISSUER: issuer,
      OIDC_CLIENT_ID: TEST_OIDC_CLIENT.id,
      OIDC_CLIENT_SECRET: TEST_OIDC_CLIENT.secret,
      OIDC_SCOPES: 'openid profile',
      OIDC_ROLE_MAP: TEST_ROLE_MAP,
    },
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

/** What the gateway's callback answered: its status, and the session cookie when it started one. */
export interface HttpSignIn {
  status: number;
  body: string;
  /** `__Host-partner-gateway-session=<id>`, ready for a cookie header. */
  cookie?: string;
}

/**
 * Signs `login` in through the gateway's admin app `admin` (injected) and the provider (over HTTP, with a cookie
 * jar of its own: a new browser each time, so every sign-in shows the provider's login page).
 */
export async function signInOverHttp(admin: FastifyInstance, login: string): Promise<HttpSignIn> {
  const start = await admin.inject({ method: 'GET', url: '/sso/start' });
  if (start.statusCode !== 302) throw new Error(`/sso/start answered ${start.statusCode}: ${start.body}`);
  const flowCookie = cookiesOf(start.headers['set-cookie']).join('; ');
  const jar = new Map<string, string>();
  let url = new URL(String(start.headers.location));
  for (let step = 0; step < 12; step += 1) {
    if (url.pathname === '/sso/callback') {
      const callback = await admin.inject({ method: 'GET', url: `${url.pathname}${url.search}`, headers: { cookie: flowCookie } });
      const session = cookiesOf(callback.headers['set-cookie']).find((cookie) => cookie.startsWith('__Host-partner-gateway-session=') && cookie.length > '__Host-partner-gateway-session='.length);
      return { status: callback.statusCode, body: callback.body, ...(session ? { cookie: session } : {}) };
    }
    let response = await providerFetch(url, jar);
    if (response.status === 200 && url.pathname.startsWith('/interaction/')) {
      const page = await response.text();
      const prompt = /name="prompt" value="(login|consent)"/.exec(page)?.[1];
      if (prompt === undefined) throw new Error(`an interaction page without a known prompt: ${page.slice(0, 200)}`);
      const form = new URLSearchParams(prompt === 'login' ? { prompt, login, password: 'any password' } : { prompt });
      response = await providerFetch(url, jar, form);
    }
    const location = response.headers.get('location');
    if (location === null) throw new Error(`the provider answered ${response.status} at ${url.pathname} without a redirect: ${(await response.text()).slice(0, 300)}`);
    url = new URL(location, url);
  }
  throw new Error('the sign-in did not reach the callback');
}

async function providerFetch(url: URL, jar: Map<string, string>, form?: URLSearchParams): Promise<Response> {
  const cookie = [...jar].map(([name, value]) => `${name}=${value}`).join('; ');
  const response = await fetch(url, {
    method: form ? 'POST' : 'GET',
    redirect: 'manual',
    headers: { ...(cookie ? { cookie } : {}), ...(form ? { 'content-type': 'application/x-www-form-urlencoded' } : {}) },
    ...(form ? { body: form.toString() } : {}),
  });
  for (const line of response.headers.getSetCookie()) {
    const [pair = ''] = line.split(';');
    const at = pair.indexOf('=');
    const [name, value] = [pair.slice(0, at), pair.slice(at + 1)];
    if (value === '' || /expires=Thu, 01 Jan 1970/i.test(line)) jar.delete(name);
    else jar.set(name, value);
  }
  return response;
}

function cookiesOf(header: string | string[] | undefined): string[] {
  const lines = header === undefined ? [] : Array.isArray(header) ? header : [header];
  return lines.map((line) => line.split(';')[0]!.trim());
}
