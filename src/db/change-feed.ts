import type pg from 'pg';

/** `pg`, loaded by the first PostgreSQL feed: a gateway on the embedded database never needs it (~3 MB of heap). */
const loadPg = async () => (await import('pg')).default;

/** What one instance tells the others it changed, so that they drop what they cached. */
export type Change =
  | { kind: 'partner'; login: string; id?: string }
  | { kind: 'family'; id: string }
  | { kind: 'banks' }
  | { kind: 'keys' }
  /** An operator, personal token or console session changed: every instance forgets the credentials it cached. */
  | { kind: 'operators'; operatorId?: string }
  /** Which actions need approval changed (maker-checker settings). */
  | { kind: 'approval-settings' }
  /** An instance's replay cache fell back from Redis to the database: claim in both for the next `forMs`. */
  | { kind: 'replay-degraded'; forMs: number };

export type ChangeKind = Change['kind'];
export type ChangeListener<K extends ChangeKind> = (change: Extract<Change, { kind: K }>) => void;

/**
 * A module subscribes to the one kind of change it caches, so a change runs only its own listener: a partner
 * changed reaches the partners' cache, not every module's.
 *
 * @example
 * ```ts
 * feed.subscribe('banks', () => catalog.invalidate());
 * ```
 */
export interface ChangeFeed {
  publish(change: Change): void;
  subscribe<K extends ChangeKind>(kind: K, listener: ChangeListener<K>): void;
  close(): Promise<void>;
}

/** Listeners by the kind they hear. */
class Listeners {
  readonly #byKind = new Map<ChangeKind, Set<(change: Change) => void>>();

  add(kind: ChangeKind, listener: (change: Change) => void): void {
    const set = this.#byKind.get(kind) ?? new Set();
    set.add(listener);
    this.#byKind.set(kind, set);
  }

  delete(kind: ChangeKind, listener: (change: Change) => void): void {
    this.#byKind.get(kind)?.delete(listener);
  }

  tell(change: Change): void {
    for (const listener of this.#byKind.get(change.kind) ?? []) listener(change);
  }
}

const CHANNEL = 'partner_gateway_changes';

/**
 * The feed's connections never keep the process alive on their own: the HTTP listeners decide its lifetime,
 * and a gateway closed without closing its feed (a test, a crash path) must still be able to exit.
 */
function unref(client: pg.Client): void {
  socketOf(client)?.unref?.();
}

/** Closing is awaited, so for it the sockets count again: the event loop must wait for the goodbye. */
async function end(client: pg.Client | undefined): Promise<void> {
  if (!client) return;
  socketOf(client)?.ref?.();
  await client.end();
}

function socketOf(client: pg.Client): { unref?: () => void; ref?: () => void } | undefined {
  return (client as unknown as { connection?: { stream?: { unref?: () => void; ref?: () => void } } }).connection?.stream;
}

/**
 * One process, one database (PGlite): the only other instances are gateways of this process over the same
 * database (tests run two, as two instances would). Each feed of a bus tells every feed of it, itself included
 * (as NOTIFY reaches its own LISTEN), after the current turn, as a notification arrives after its transaction.
 */
export function createLocalChangeFeedBus(): { feed(): ChangeFeed } {
  const listeners = new Listeners();
  return {
    feed() {
      const mine: Array<[ChangeKind, (change: Change) => void]> = [];
      let closed = false;
      return {
        publish(change) {
          if (closed) return;
          setImmediate(() => listeners.tell(change));
        },
        subscribe(kind, listener) {
          const any = listener as (change: Change) => void;
          mine.push([kind, any]);
          listeners.add(kind, any);
        },
        async close() {
          closed = true;
          for (const [kind, listener] of mine) listeners.delete(kind, listener);
        },
      };
    },
  };
}

/**
 * PostgreSQL LISTEN/NOTIFY between the instances sharing a database: a change made through one instance's
 * admin API (a block, a new password, a logout, a new bank list, a rotated key) reaches the others' caches in
 * milliseconds rather than at the end of their CACHE_TTL_MS. Notifications are best effort: a publish that
 * fails, or one sent while a listener was reconnecting, is covered by the cache TTL. The listening
 * connection reconnects by itself after the database comes back.
 */
export function createPostgresChangeFeed(connectionString: string, options: { searchPath?: string; onError?: (error: unknown) => void } = {}): ChangeFeed {
  const listeners = new Listeners();
  const channel = options.searchPath ? `${CHANNEL}_${options.searchPath}` : CHANNEL;
  let client: pg.Client | undefined;
  let publisher: pg.Client | undefined;
  let closed = false;
  let retry: NodeJS.Timeout | undefined;

  const clientConfig = () => ({ connectionString, connectionTimeoutMillis: 2_000 });

  async function listen(): Promise<void> {
    if (closed) return;
    const connection = new (await loadPg()).Client(clientConfig());
    connection.on('error', (error) => {
      options.onError?.(error);
      reconnect(connection);
    });
    connection.on('end', () => reconnect(connection));
    connection.on('notification', (message) => {
      if (message.channel !== channel || !message.payload) return;
      let change: Change;
      try {
        change = JSON.parse(message.payload) as Change;
      } catch {
        return;
      }
      listeners.tell(change);
    });
    try {
      await connection.connect();
      unref(connection);
      await connection.query(`listen "${channel}"`);
      if (closed) {
        connection.removeAllListeners('end');
        await connection.end();
        return;
      }
      client = connection;
    } catch (error) {
      options.onError?.(error);
      reconnect(connection);
    }
  }

  function reconnect(connection: pg.Client): void {
    if (client === connection) client = undefined;
    connection.removeAllListeners('end');
    connection.end().catch(() => {});
    if (closed || retry) return;
    retry = setTimeout(() => {
      retry = undefined;
      void listen();
    }, 1_000);
    retry.unref();
  }

  void listen();

  return {
    publish(change) {
      if (closed) return;
      void (async () => {
        try {
          if (!publisher) {
            const connection = new (await loadPg()).Client(clientConfig());
            connection.on('error', () => {
              if (publisher === connection) publisher = undefined;
            });
            await connection.connect();
            unref(connection);
            if (closed) {
              await connection.end();
              return;
            }
            publisher = connection;
          }
          await publisher.query('select pg_notify($1, $2)', [channel, JSON.stringify(change)]);
        } catch (error) {
          publisher?.end().catch(() => {});
          publisher = undefined;
          options.onError?.(error);
        }
      })();
    },
    subscribe(kind, listener) {
      listeners.add(kind, listener as (change: Change) => void);
    },
    async close() {
      closed = true;
      clearTimeout(retry);
      client?.removeAllListeners('end');
      await Promise.allSettled([end(client), end(publisher)]);
    },
  };
}
