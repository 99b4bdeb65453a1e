import type { GatewayProcess } from '../../test/support/gateway-process.js';

/**
 * Creates a partner allowed from loopback with the `sbp` reward type through the admin API, logs it in, and
 * returns its access token: the bearer banks scenarios' caller (bench/bearer-comparison.ts, bench/profile.ts,
 * bench/perf-record.ts).
 */
export async function bearerPartner(gateway: GatewayProcess, adminToken: string, login: string, password: string): Promise<string> {
  const created = await fetch(`${gateway.admin}/admin/v1/partners`, {
    method: 'POST',
    headers: { authorization: `Bearer ${adminToken}`, 'content-type': 'application/json' },
    body: JSON.stringify({ login, password, ipAllowlist: ['127.0.0.1'], rewardTypes: ['sbp'] }),
  });
  if (created.status !== 201) throw new Error(`cannot create partner: ${await created.text()}`);
  const answer = await fetch(`${gateway.base}/api/v1/login/`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ login, password }) });
  if (answer.status !== 200) throw new Error(`cannot log in: ${await answer.text()}`);
  return ((await answer.json()) as { access_token: string }).access_token;
}
