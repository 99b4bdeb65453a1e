/**
 * Groups the writes asked for in one turn of the event loop into one call of `writeAll` (a multi-row
 * statement), made at the end of that turn; writes asked for while it runs form the next group. Each caller's
 * promise settles with its own row's fate: when a group fails, its rows are written one by one, so that one
 * row the database refuses fails only its own caller.
 *
 * Why a turn: the embedded PGlite runs a statement synchronously on the thread that serves requests, so a
 * statement per call cost its whole fixed price (about 0.5 ms, most of it the commit) per call, and nothing
 * could join a statement in flight. The requests read in one I/O phase share one statement instead.
 *
 * @example
 * ```ts
 * const open = createTurnBatch((rows: Row[]) => db.insertInto('token_families').values(rows).execute().then(() => {}));
 * await Promise.all([open(a), open(b)]); // one INSERT of two rows
 * ```
 */
export function createTurnBatch<T>(writeAll: (items: T[]) => Promise<void>, maxBatch = 500): (item: T) => Promise<void> {
  let queue: Array<{ item: T; resolve(): void; reject(error: unknown): void }> = [];
  let running = false;
  let scheduled = false;

  async function write(batch: typeof queue): Promise<void> {
    try {
      await writeAll(batch.map((entry) => entry.item));
      for (const entry of batch) entry.resolve();
    } catch (error) {
      if (batch.length === 1) {
        batch[0]!.reject(error);
        return;
      }
      await Promise.all(batch.map((entry) => write([entry])));
    }
  }

  function drain(): void {
    if (running || queue.length === 0) return;
    const batch = queue.slice(0, maxBatch);
    queue = queue.slice(batch.length);
    running = true;
    void write(batch).finally(() => {
      running = false;
      drain();
    });
  }

  return (item) =>
    new Promise<void>((resolve, reject) => {
      queue.push({ item, resolve, reject });
      if (scheduled) return;
      scheduled = true;
      setImmediate(() => {
        scheduled = false;
        drain();
      });
    });
}
