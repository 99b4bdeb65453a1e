import type { KeyView } from '@partner-gateway/contract/admin-keys';
import type { KeyInfo } from './key-store.js';

/** A key as the admin API shows it (the contract's KeyView): its times as ISO text, never a private half. */
export function toKeyView(key: KeyInfo): KeyView {
  return {
    kid: key.kid,
    use: key.use,
    alg: key.alg,
    active: key.active,
    createdAt: key.createdAt.toISOString(),
    retiredAt: key.retiredAt?.toISOString() ?? null,
    usableUntil: key.usableUntil?.toISOString() ?? null,
  };
}
