import { createTurnBatch } from '../../async/turn-batch.js';

/** Writes a batch of distinct jtis in one statement; returns those that were new (claimed by this batch). */
export type InsertNew = (entries: ReadonlyArray<{ jti: string; rememberUntil: Date }>) => Promise<Set<string>>;

/** At most this many jtis in one statement (PostgreSQL allows 65 535 parameters; two per row). */
const MAX_BATCH = 1_000;

/**
 * Claims jtis the way a database commits in groups (createTurnBatch): the claims of one turn of the event
 * loop are written together at its end, those that arrive while a statement is in flight together after it,
 * in one multi-row `INSERT ... ON CONFLICT DO NOTHING RETURNING`. Under load every accepted JWE or DPoP proof
 * then costs a share of a statement instead of a statement (on the embedded PGlite, where a statement runs
 * synchronously on the serving thread, nothing else could join one: 0.5 ms each, measured); alone, a claim
 * costs what it did. Atomicity across instances is the database's: a jti is claimed by whichever statement
 * inserts it. Within one batch a jti claimed twice goes to the first claimant only, so concurrent replays on
 * one instance are refused too; a batch the database refuses is written claim by claim, which keeps that.
 *
 * @example
 * ```ts
 * const claim = createBatchedClaims(insertNew);
 * await Promise.all([claim('a', until), claim('a', until)]); // [true, false]
 * ```
 */
export function createBatchedClaims(insertNew: InsertNew): (jti: string, rememberUntil: Date) => Promise<boolean> {
  const claimAll = createTurnBatch(async (claims: Array<{ jti: string; rememberUntil: Date }>) => {
    // The first claimant of each jti speaks for it; later ones in the same batch are replays.
    const first = new Map<string, number>();
    claims.forEach((claim, index) => {
      if (!first.has(claim.jti)) first.set(claim.jti, index);
    });
    const fresh = await insertNew([...first.values()].map((index) => claims[index]!));
    return claims.map((claim, index) => first.get(claim.jti) === index && fresh.has(claim.jti));
  }, MAX_BATCH);
  return (jti, rememberUntil) => claimAll({ jti, rememberUntil });
}
