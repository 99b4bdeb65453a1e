import type { JtiJournal, JtiReplayRepository } from './jti-replay-repository.js';

/**
 * The JWE replay cache in this process's memory. Only correct where one process is the whole gateway: the
 * embedded PGlite database has a single owner, so with it this is exact and costs no database write per call.
 */
export function createMemoryJtiReplayStore(now: () => number): JtiReplayRepository & JtiJournal {
  const seen = new Map<string, number>();
  let lastPurge = now();
  const purge = () => {
    const at = now();
    let purged = 0;
    for (const [jti, until] of seen) {
      if (until <= at) {
        seen.delete(jti);
        purged++;
      }
    }
    lastPurge = at;
    return purged;
  };
  const claim = (jti: string, rememberUntil: Date) => {
    if (now() - lastPurge > 10_000) purge();
    const until = seen.get(jti);
    if (until !== undefined && until > now()) return false;
    seen.set(jti, rememberUntil.getTime());
    return true;
  };
  return {
    claim: async (jti, rememberUntil) => claim(jti, rememberUntil),
    recordAll: async (entries) => entries.filter((entry) => !claim(entry.jti, entry.rememberUntil)).map((entry) => entry.jti),
    purgeExpired: async () => purge(),
  };
}
