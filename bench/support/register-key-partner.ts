import type { GatewayProcess } from '../../test/support/gateway-process.js';
import { benchKey, type BenchKey } from './oauth-requests.js';

/** Registers `bench-key` (an ES256 key, private_key_jwt only) through the admin API; used by bench/oauth-scenarios.ts, bench/token-comparison.ts and bench/profile.ts. */
export async function registerKeyPartner(gateway: GatewayProcess, adminToken: string): Promise<BenchKey> {
  const key = await benchKey();
  const admin = async (method: string, path: string, body: unknown) => {
    const response = await fetch(`${gateway.admin}${path}`, { method, headers: { authorization: `Bearer ${adminToken}`, 'content-type': 'application/json' }, body: JSON.stringify(body) });
    if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${await response.text()}`);
  };
  await admin('POST', '/admin/v1/partners', { login: 'bench-key', password: 'bench key partner password', ipAllowlist: ['127.0.0.1'], rewardTypes: ['sbp'] });
  await admin('PUT', '/admin/v1/partners/bench-key/jwks', { keys: [key.publicJwk] });
  await admin('PATCH', '/admin/v1/partners/bench-key', { authMethods: ['private_key_jwt'] });
  return key;
}
