import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import type { ReplayStateRepository, Sentinel } from './replay-state-repository.js';

/** One place spent jtis are kept, and its sentinel: a marker kept beside the jtis, so that it is lost with them. */
export interface ReplayStateScope {
  /** Its replay_state row: `database` (the jwe_replay table) or `redis:<prefix>`. */
  name: string;
  /**
   * The sentinel the store holds now (undefined when none): its epoch and, where it keeps one, the loss it was
   * written after (ms, 0 when none). `db` is the transaction of the check; `expected`, the epoch the database
   * records (0 for none), which the store may look for first.
   */
  readSentinel(db: Kysely<Database>, expected: number): Promise<Sentinel | undefined>;
  writeSentinel(db: Kysely<Database>, sentinel: Sentinel): Promise<void>;
  /** After a loss, before the new sentinel is written: puts back what survives elsewhere (Redis: lockouts). */
  restore?(db: Kysely<Database>): Promise<void>;
  /** A check that fails leaves this scope unknown until its next claim, instead of failing the start (Redis: it may be away). */
  optional?: boolean;
}

export interface ReplayStateOptions {
  repository: ReplayStateRepository;
  scopes: ReplayStateScope[];
  now: () => number;
  /**
   * The embedded database (this process its only writer): the key its gateways share one open marker under.
   * A start that finds the marker set (the last process did not close cleanly: killed, out of memory) counts the
   * `database` scope as lost, whatever the table holds: its newest jtis were in memory only.
   */
  soleWriter?: object;
  /** Told when a scope is found lost (at `lostAt`, ms), and when an optional scope could not be checked. */
  onLost?(scope: string, lostAt: number): void;
  onCheckFailed?(scope: string, error: unknown): void;
}

/**
 * Whether this gateway can prove its replay state complete, and since when it could not.
 *
 * A store's jtis can vanish under it: the embedded database's process killed (its newest jtis in memory, its
 * UNLOGGED table emptied by recovery), PostgreSQL crashed (UNLOGGED tables are truncated), a table emptied by
 * hand, Redis restarted without persistence or evicting. Each store keeps a sentinel beside its jtis whose
 * epoch the database (LOGGED) records; a claim is answered only while the store holds the epoch this instance
 * knows, checked in the claim's own statement or script. When it does not, the first instance to see it
 * records the loss under a row lock (a new epoch, `lost_at` = now, the sentinel written again) and the others
 * learn it from that row when their own claims miss the sentinel: no message between instances is needed.
 * From then on `notBefore()` is that moment: a single-use credential issued before it may have been spent
 * before the loss, so it is refused (createSingleUseJtis). The refusal lasts as long as such a credential
 * could still be accepted at all (JWE_MAX_AGE, the assertion lifetime), after which the windows refuse it anyway.
 *
 * @example
 * ```ts
 * const state = createReplayState({ repository, scopes: [databaseScope], now: Date.now, soleWriter: db });
 * await state.ready();
 * state.notBefore(); // 0, or when the last loss was found (ms)
 * ```
 */
export interface ReplayState {
  /** Checks every scope once (memoized; a failed check of a required scope is tried again at the next call). */
  ready(): Promise<void>;
  /** The epoch this instance knows for `scope`, undefined before its check. */
  epoch(scope: string): number | undefined;
  /** Single-use credentials issued before this moment (ms since the epoch) are refused; 0 when no loss is known. */
  notBefore(): number;
  /** `scope`'s sentinel did not match: records the loss, or learns the epoch another instance recorded. One check at a time per scope. */
  recover(scope: string): Promise<void>;
  /** The gateway stops: on the embedded database, the last to close marks it closed cleanly when `clean` (everything written). */
  close(clean: boolean): Promise<void>;
}

/** Per embedded database: the check that read and set its open marker, and the gateways of this process using it. */
const sessions = new WeakMap<object, { opened: Promise<void> | undefined; users: number; dirty: boolean }>();

export const DATABASE_SCOPE = 'database';

export function createReplayState(options: ReplayStateOptions): ReplayState {
  const { repository, scopes, now } = options;
  const known = new Map<string, { epoch: number; lostAt: number }>();
  const checking = new Map<string, Promise<void>>();
  let ready: Promise<void> | undefined;
  let closed = false;
  const session = options.soleWriter === undefined ? undefined : join(options.soleWriter);

  function join(key: object) {
    let entry = sessions.get(key);
    if (!entry) sessions.set(key, (entry = { opened: undefined, users: 0, dirty: false }));
    entry.users += 1;
    return { key, entry };
  }

  /** The embedded database's first check in this process: the one that reads the last process's open marker. */
  function opened(): Promise<void> | undefined {
    const database = scopes.find((scope) => scope.name === DATABASE_SCOPE);
    if (!session || !database) return undefined;
    const { entry } = session;
    entry.opened ??= check(database, true).catch((error: unknown) => {
      entry.opened = undefined;
      throw error;
    });
    return entry.opened;
  }

  /**
   * One scope's check under its row lock. `opening`: the embedded database's first check in this process, which
   * reads the open marker left by the last one and sets it for this one.
   */
  async function check(scope: ReplayStateScope, opening = false): Promise<void> {
    const found = await repository.locked(scope.name, async (row, transaction) => {
      const seen = await scope.readSentinel(transaction.db, row.epoch);
      let epoch = row.epoch;
      let lostAt = Math.max(row.lostAt?.getTime() ?? 0, seen?.lostAt ?? 0);
      // Epoch 0: nothing was ever recorded here (a new database, or one from before this check). A sentinel of a
      // later epoch than the row's was written by an instance of another database sharing this store (Redis),
      // after a loss it recorded: its epoch and its loss are taken. Anything else is a loss: no sentinel, an
      // earlier one (the store went back to an old copy), or the embedded database's last process killed.
      const lost = epoch > 0 && (seen === undefined || seen.epoch < epoch || (opening && row.open));
      if (lost) {
        lostAt = Math.max(now(), lostAt);
        await scope.restore?.(transaction.db);
        epoch = Math.max(epoch, seen?.epoch ?? 0) + 1;
        await scope.writeSentinel(transaction.db, { epoch, lostAt });
      } else if (seen !== undefined) {
        epoch = Math.max(epoch, seen.epoch);
      } else {
        epoch = 1;
        await scope.writeSentinel(transaction.db, { epoch, lostAt });
      }
      await transaction.save({ epoch, lostAt: lostAt === 0 ? null : new Date(lostAt), open: opening || row.open });
      return { epoch, lostAt, lost };
    });
    known.set(scope.name, { epoch: found.epoch, lostAt: found.lostAt });
    if (found.lost) options.onLost?.(scope.name, found.lostAt);
  }

  function recover(name: string): Promise<void> {
    const scope = scopes.find((candidate) => candidate.name === name);
    if (!scope) return Promise.reject(new Error(`no replay state scope ${name}`));
    let running = checking.get(name);
    if (!running) {
      running = check(scope).finally(() => checking.delete(name));
      checking.set(name, running);
    }
    return running;
  }

  async function checkAll(): Promise<void> {
    await opened();
    for (const scope of scopes) {
      if (!scope.optional) await recover(scope.name);
      else await recover(scope.name).catch((error: unknown) => options.onCheckFailed?.(scope.name, error));
    }
  }

  return {
    ready() {
      ready ??= checkAll().catch((error: unknown) => {
        ready = undefined;
        throw error;
      });
      return ready;
    },
    epoch: (scope) => known.get(scope)?.epoch,
    notBefore() {
      let latest = 0;
      for (const { lostAt } of known.values()) latest = Math.max(latest, lostAt);
      return latest;
    },
    recover,
    async close(clean) {
      if (!session || closed) return;
      closed = true;
      // A start check still running would set the open marker after this close cleared it.
      await ready?.catch(() => {});
      const { key, entry } = session;
      entry.users -= 1;
      if (!clean) entry.dirty = true;
      if (entry.users > 0) return;
      if (sessions.get(key) === entry) sessions.delete(key);
      if (!entry.dirty) await repository.markClosed(DATABASE_SCOPE);
    },
  };
}
