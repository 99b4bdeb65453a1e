import type { KeyView } from '@partner-gateway/contract/admin-keys';
import type { CheckedAction } from '../../approvals/checked-action.js';
import { errors } from '../../errors.js';
import type { KeysModule } from '../../keys/keys-module.js';

/**
 * Revoking one of the gateway's keys, which maker-checker can hold: every token signed by a signing key, or JWE
 * encrypted to an encryption key, is refused at once on every instance, so a mistaken revocation logs every
 * partner out.
 */
export function keyActions(keys: KeysModule['admin']): CheckedAction[] {
  async function find(kid: string): Promise<KeyView> {
    const key = (await keys.list()).find((candidate) => candidate.kid === kid);
    if (!key) throw errors.notFound();
    return key;
  }
  const revoke: CheckedAction<{ kid: string }, KeyView> = {
    action: 'key.revoke',
    permission: 'keys.write',
    description: 'Revoke a signing or encryption key (its tokens or JWEs are refused at once)',
    async preview({ kid }) {
      const key = await find(kid);
      return {
        target: `${key.use === 'sig' ? 'signing' : 'encryption'} key ${kid}`,
        preview: {
          revoked: { kid, use: key.use, alg: key.alg, active: key.active, createdAt: key.createdAt },
          consequence: `${key.use === 'sig' ? 'every access token it signed' : 'every partnerPassword JWE encrypted to it'} is refused at once${key.active ? '; a new active key is made first' : ''}`,
        },
        // A rotation in between (the key retired, or retired for longer) changes what revoking it does.
        base: `${kid}:${key.active ? 'active' : `retired ${key.retiredAt ?? ''}`}`,
      };
    },
    async apply({ kid }, context) {
      const key = await keys.revoke(kid);
      context.audit.details = { ...context.audit.details, use: key.use, kid: key.kid };
      return key;
    },
  };
  return [revoke];
}
