import type { Kysely } from 'kysely';
import { isSoleWriter } from '../../db/database.js';
import type { Database } from '../../db/schema.js';

/**
 * Lock ends (ms, 0 for none) as the database holds them, per key, for databases this process alone writes
 * (PGlite: see isSoleWriter), one map per database so that every store object over it shares it.
 *
 * Why this keeps every property of the brute-force defence: on such a database every lock is written by a
 * store object of this process, which sets the key's entry in the same transaction that writes the lock,
 * before it commits (a transaction that then fails leaves the entry stricter than the database, never
 * looser). A key not in the map is read from the database, and what is read fills the map only if no write
 * filled it meanwhile. So `lockedFor` answers as the database would, without a query per encrypted-password
 * call on the event loop PGlite shares with the requests. Reservations and failures still go to the database.
 */
const mirrors = new WeakMap<Kysely<Database>, Map<string, number>>();
/** Keys a mirror holds at most: beyond that it starts again empty (and reads keys back as asked). */
export const MIRROR_MAX_KEYS = 100_000;

/** The mirror of `db`'s locks, or undefined when other processes may write them (PostgreSQL). */
export function lockMirror(db: Kysely<Database>): Map<string, number> | undefined {
  if (!isSoleWriter(db)) return undefined;
  let mirror = mirrors.get(db);
  if (!mirror) mirrors.set(db, (mirror = new Map()));
  return mirror;
}
