import type { JtiReplayRepository } from './jti-replay-repository.js';
import { ReplayStateLost } from './replay-state-lost.js';
import type { ReplayState } from './replay-state.js';

/**
 * A jti is 1 to 128 printable ASCII characters (U+0020 to U+007E). Anything else is refused before it reaches
 * a store: a NUL byte, for one, cannot be held by PostgreSQL text, and a journal insert carrying one failed
 * again and again, holding back every jti behind it.
 *
 * @example
 * ```ts
 * isValidJti('6f1c2a90-1f0e-4b7a-9d1e-3c5b7a9e0f12'); // true
 * isValidJti('a\u0000b'); // false
 * ```
 */
export function isValidJti(jti: unknown): jti is string {
  return typeof jti === 'string' && /^[\x20-\x7e]{1,128}$/.test(jti);
}

/**
 * What spending a credential's jti came to: `spent` (first use: accept it), `replayed` (seen before), or
 * `state_lost` (issued before the replay state was last lost: whether it was seen before cannot be proven).
 */
export type SpendOutcome = 'spent' | 'replayed' | 'state_lost';

/** A single-use credential's jti, with what the replay check needs to know of it. */
export interface SingleUseCredential {
  /**
   * When it was issued, in seconds since the epoch (a JWT NumericDate): its `iat`; for a client assertion the
   * later of its `iat` and the earliest moment its `exp` allows it to have been first presented.
   */
  issuedAt: number;
  /** Until when the jti must be remembered: as long as the credential could be accepted. */
  rememberUntil: Date;
}

/** The encrypted passwords', client assertions' and DPoP proofs' jtis, spent once for every instance. */
export interface SingleUseJtis {
  /**
   * Spends `jti` (already prefixed by its kind: encrypted passwords, assertions and proofs never share a key).
   * Throws when no store can answer (the call then fails with its credential unspent).
   */
  spend(jti: string, credential: SingleUseCredential): Promise<SpendOutcome>;
}

/** How often one spend learns of a new loss and claims again before it gives up (a store losing its state in a loop). */
const MAX_RECOVERIES = 3;

/**
 * The replay store behind the rule of issue 26: whenever the gateway cannot prove its replay state complete,
 * a credential issued before the state was lost is refused, though its jti is unknown (see ReplayState). The
 * check costs a comparison per spend; the store's own check of its sentinel rides in the claim's statement.
 *
 * @example
 * ```ts
 * const jtis = createSingleUseJtis(store, state);
 * await jtis.spend('dpop:…', { issuedAt: payload.iat, rememberUntil }); // 'spent', then 'replayed'
 * ```
 */
export function createSingleUseJtis(store: Pick<JtiReplayRepository, 'claim'>, state: Pick<ReplayState, 'ready' | 'notBefore' | 'recover'>): SingleUseJtis {
  return {
    async spend(jti, { issuedAt, rememberUntil }) {
      await state.ready();
      for (let recoveries = 0; ; recoveries++) {
        if (issuedAt * 1000 < state.notBefore()) return 'state_lost';
        try {
          return (await store.claim(jti, rememberUntil)) ? 'spent' : 'replayed';
        } catch (error) {
          if (!(error instanceof ReplayStateLost) || recoveries >= MAX_RECOVERIES) throw error;
          await state.recover(error.scope);
          if (error.claimed) return issuedAt * 1000 < state.notBefore() ? 'state_lost' : 'spent';
        }
      }
    },
  };
}
