import { sql, type Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import { createBatchedClaims } from './batched-claims.js';
import { ReplayStateLost } from './replay-state-lost.js';

/** Remembers the jti of every accepted partnerPassword JWE for as long as that JWE could still be accepted. */
export interface JtiReplayRepository {
  /** Records `jti`; false when it was already recorded (a replay). Atomic across instances. */
  claim(jti: string, rememberUntil: Date): Promise<boolean>;
  /** Forgets jtis whose JWE can no longer be accepted anyway. */
  purgeExpired(now?: Date): Promise<number>;
}

/** Writes down jtis already accepted elsewhere (through Redis, or in memory on PGlite), so that the database knows them too. */
export interface JtiJournal {
  /** Records every jti not recorded yet; returns those that were recorded already (claimed through this store). */
  recordAll(entries: ReadonlyArray<{ jti: string; rememberUntil: Date }>): Promise<string[]>;
  /** Up to `limit` jtis still remembered at `now`, the longest-remembered first (a restart reloads them). */
  live(now: Date, limit: number): Promise<Array<{ jti: string; rememberUntil: Date }>>;
}

/**
 * The jti of the table's sentinel row for `epoch` (see replay-state.ts): it lives and dies with the table's
 * other rows (an UNLOGGED table emptied by crash recovery, a TRUNCATE), and no claim can carry it: every jti a
 * claim stores is printable ASCII, and this one is not.
 */
export const SENTINEL_PREFIX = '\u00a7replay-state:';
export const sentinelJti = (epoch: number) => `${SENTINEL_PREFIX}${epoch}`;

export interface JtiReplayRepositoryOptions {
  /**
   * The epoch whose sentinel row the table must hold for a claim to be answered (replay-state.ts). When it is
   * missing, nothing is claimed and the claim throws ReplayStateLost('database'). Without this option claims
   * are not checked (tests of the table alone).
   */
  epoch?: () => number | undefined;
}

export function createJtiReplayRepository(db: Kysely<Database>, options: JtiReplayRepositoryOptions = {}): JtiReplayRepository & JtiJournal {
  /** Inserts the jtis not there yet and returns them; with `sentinel`, only while that row is there (looked at in the statement itself). */
  async function insertNew(entries: ReadonlyArray<{ jti: string; rememberUntil: Date }>, sentinel?: string): Promise<Set<string>> {
    // Two array parameters rather than two per row: a thousand-row batch is parsed and planned as a two-row
    // one, which took the embedded database's share of a row from about 50 to 30 µs (PostgreSQL's client, 15 to 8).
    const inserted = await sql<{ jti: string }>`insert into jwe_replay (jti, expires_at)
      select * from unnest(${entries.map((entry) => entry.jti)}::text[], ${entries.map((entry) => entry.rememberUntil.toISOString())}::timestamptz[])
      ${sentinel === undefined ? sql`` : sql`where exists (select 1 from jwe_replay where jti = ${sentinel})`}
      on conflict (jti) do nothing returning jti`.execute(db);
    return new Set(inserted.rows.map((row) => row.jti));
  }
  /**
   * insertNew, only while the sentinel row is there (looked at once per statement, in the statement itself).
   * A statement that inserted something saw it; one that inserted nothing (every claim a replay, or the
   * sentinel gone) looks at it again, so that only a refusal pays a second query.
   */
  async function insertNewChecked(entries: ReadonlyArray<{ jti: string; rememberUntil: Date }>): Promise<Set<string>> {
    const epoch = options.epoch!();
    if (epoch === undefined) throw new ReplayStateLost('database');
    const inserted = await insertNew(entries, sentinelJti(epoch));
    if (inserted.size === 0) {
      const sentinel = await db.selectFrom('jwe_replay').select('jti').where('jti', '=', sentinelJti(epoch)).executeTakeFirst();
      if (!sentinel) throw new ReplayStateLost('database');
    }
    return inserted;
  }
  // Claims arriving together share one statement (see createBatchedClaims): under load an accepted JWE or DPoP
  // proof costs a share of an insert, not an insert.
  const claim = createBatchedClaims(options.epoch ? insertNewChecked : insertNew);
  return {
    async recordAll(entries) {
      if (entries.length === 0) return [];
      const fresh = await insertNew(entries);
      return entries.map((entry) => entry.jti).filter((jti) => !fresh.has(jti));
    },
    claim,
    async live(now, limit) {
      const rows = await db
        .selectFrom('jwe_replay')
        .select(['jti', 'expires_at'])
        .where('expires_at', '>', now)
        .where('jti', 'not like', `${SENTINEL_PREFIX}%`)
        .orderBy('expires_at', 'desc')
        .limit(limit)
        .execute();
      return rows.map((row) => ({ jti: row.jti, rememberUntil: new Date(row.expires_at) }));
    },
    async purgeExpired(now = new Date()) {
      const rows = await db.deleteFrom('jwe_replay').where('expires_at', '<', now).returning('jti').execute();
      return rows.length;
    },
  };
}
