import type { AuditEntry } from './audit-entry.js';
import type { AuditRepository } from './audit-repository.js';

export interface AuditWriter {
  /** Queues an entry; it is written within `intervalMs` (or sooner when the batch fills). */
  record(entry: AuditEntry): void;
  /** Writes everything queued so far. */
  flush(): Promise<void>;
  /** Stops the timer and writes what is left, retrying until `timeoutMs` has passed. */
  close(timeoutMs?: number): Promise<void>;
  /** Entries accepted but not yet written. */
  pending(): number;
}

export interface AuditWriterOptions {
  intervalMs?: number;
  batchSize?: number;
  onError?: (error: unknown) => void;
}

/**
 * Writes the audit trail off the request path, in batches. An entry that fails to be written (the database
 * is down) stays queued and is tried again with the next batch, so nothing accepted is lost while the
 * process lives; `close()` on a graceful shutdown drains the queue.
 */
export function createAuditWriter(repository: AuditRepository, options: AuditWriterOptions = {}): AuditWriter {
  const intervalMs = options.intervalMs ?? 250;
  const batchSize = options.batchSize ?? 500;
  let queue: AuditEntry[] = [];
  let writing: Promise<void> | undefined;

  async function writeOnce(): Promise<void> {
    while (queue.length > 0) {
      const batch = queue.slice(0, batchSize);
      await repository.append(batch);
      queue = queue.slice(batch.length);
    }
  }

  function flush(): Promise<void> {
    writing ??= writeOnce().finally(() => {
      writing = undefined;
    });
    return writing;
  }

  const timer = setInterval(() => {
    if (queue.length > 0) flush().catch((error: unknown) => options.onError?.(error));
  }, intervalMs);
  timer.unref();

  return {
    record(entry) {
      queue.push(entry);
      if (queue.length >= batchSize) flush().catch((error: unknown) => options.onError?.(error));
    },
    flush,
    async close(timeoutMs = 10_000) {
      clearInterval(timer);
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        try {
          await flush();
          if (queue.length === 0) return;
        } catch (error) {
          if (Date.now() >= deadline) throw error;
          await new Promise((resolve) => setTimeout(resolve, 200));
        }
      }
    },
    pending: () => queue.length,
  };
}
