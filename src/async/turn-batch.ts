/**
 * Groups the writes asked for in one turn of the event loop into one call of `writeAll` (a multi-row
 * statement), made at the end of that turn; writes asked for while it runs form the next group. `writeAll`
 * answers one result per item, in order, and each caller's promise settles with its own: when a group
 * fails, its items are written one by one, so that one row the database refuses fails only its own caller.
 *
 * Why a turn: the embedded PGlite runs a statement synchronously on the thread that serves requests, so a
 * statement per call cost its whole fixed price (about 0.5 ms, most of it the commit) per call, and nothing
 * could join a statement in flight. The requests read in one I/O phase share one statement instead.
 *
 * @example
 * ```ts
 * const claimAll = createTurnBatch(async (rows: Row[]) => {
 *   await db.insertInto('jwe_replay').values(rows).execute();
 *   return rows.map(() => undefined);
 * });
 * await Promise.all([claimAll(a), claimAll(b)]); // one INSERT of two rows
 * ```
 */
export function createTurnBatch<T, R>(writeAll: (items: T[]) => Promise<readonly R[]>, maxBatch = 500): (item: T) => Promise<R> {
  let queue: Array<{ item: T; resolve(result: R): void; reject(error: unknown): void }> = [];
  let running = false;
  let scheduled = false;

  async function write(batch: typeof queue): Promise<void> {
    try {
      const results = await writeAll(batch.map((entry) => entry.item));
      batch.forEach((entry, index) => entry.resolve(results[index]!));
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
    new Promise<R>((resolve, reject) => {
      queue.push({ item, resolve, reject });
      if (scheduled) return;
      scheduled = true;
      setImmediate(() => {
        scheduled = false;
        drain();
      });
    });
}
