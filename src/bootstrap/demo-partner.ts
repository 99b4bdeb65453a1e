import { randomBytes } from 'node:crypto';
import type { Gateway } from '../gateway.js';

export const DEMO_LOGIN = 'demo';

/**
 * On a first start outside production (no partners at all), creates a demo partner that may call only from
 * loopback, with reward type sbp, and returns its credentials so they can be printed once. Returns
 * `undefined` when there is nothing to do. The password is base64url, so it is safe inside JSON and a shell.
 */
export async function createDemoPartner(gateway: Gateway): Promise<{ login: string; password: string } | undefined> {
  if (gateway.config.NODE_ENV === 'production') return undefined;
  if ((await gateway.admin.partners.count()) > 0) return undefined;
  const password = randomBytes(18).toString('base64url');
  try {
    await gateway.admin.partners.create({
      login: DEMO_LOGIN,
      password,
      ipAllowlist: ['127.0.0.1/32', '::1/128'],
      rewardTypes: ['sbp'],
    });
  } catch {
    // Another instance starting at the same moment created it first.
    return undefined;
  }
  return { login: DEMO_LOGIN, password };
}
