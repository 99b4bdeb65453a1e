import { TEST_ADMIN_TOKEN, type TestGateway } from './test-gateway.js';

/** What a partner gets from the banks operation: the bytes as sent, the strong ETag and the list's version. */
export interface PartnerBanksAnswer {
  status: number;
  bytes: Buffer;
  etag: string | null;
  version: string | null;
}

/**
 * The two sides of the bank list over real HTTP, for the bank system tests: the admin API (JSON answers, any
 * body and content type, on any instance's listener) and a partner's banks call with a bearer token of a partner
 * created for the purpose.
 */
export async function bankListClients(t: TestGateway, api: string, adminUrl: string) {
  const partner = await t.addPartner();
  const login = await fetch(`${api}/api/v1/login/`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(partner) });
  const token = ((await login.json()) as { access_token: string }).access_token;
  return {
    async admin(method: string, path: string, body?: string | Buffer, contentType = 'application/json', base = adminUrl) {
      const response = await fetch(`${base}${path}`, {
        method,
        headers: { authorization: `Bearer ${TEST_ADMIN_TOKEN}`, ...(body === undefined ? {} : { 'content-type': contentType }) },
        ...(body === undefined ? {} : { body }),
      });
      const text = await response.text();
      // A test reads whatever shape the route answers.
      return { status: response.status, json: (text ? JSON.parse(text) : undefined) as any };
    },
    async partnerBanks(query = '', headers: Record<string, string> = {}): Promise<PartnerBanksAnswer> {
      const response = await fetch(`${api}/partner/provider/sbp/banks/${query}`, { method: 'POST', headers: { authorization: `Bearer ${token}`, ...headers } });
      return { status: response.status, bytes: Buffer.from(await response.arrayBuffer()), etag: response.headers.get('etag'), version: response.headers.get('x-bank-list-version') };
    },
  };
}
