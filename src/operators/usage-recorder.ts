/**
 * Last-use times recorded off the request path: each use is noted in memory (the latest per id), and the
 * noted uses are written in one statement per kind every `intervalMs` and when closing, as the audit trail is
 * written in batches. A request with a personal token or a console session costs no database write; the
 * lists show a last use at most `intervalMs` old. A write that fails keeps its uses for the next one.
 */
export interface UsageRecorder {
  note(id: string, at: Date): void;
  /** The latest use noted and not yet written, if any. */
  pending(id: string): Date | undefined;
  /** Writes what is noted now. */
  flush(): Promise<void>;
  close(): Promise<void>;
}

export function createUsageRecorder(
  write: (uses: Array<{ id: string; at: Date }>) => Promise<void>,
  options: { intervalMs: number; onError: (error: unknown) => void },
): UsageRecorder {
  let noted = new Map<string, Date>();
  let writing: Promise<void> | undefined;

  async function flush(): Promise<void> {
    while (writing) await writing;
    if (noted.size === 0) return;
    const batch = noted;
    noted = new Map();
    writing = write([...batch].map(([id, at]) => ({ id, at }))).then(
      () => undefined,
      (error: unknown) => {
        // Kept for the next write, unless a later use was noted meanwhile.
        for (const [id, at] of batch) if (!noted.has(id)) noted.set(id, at);
        throw error;
      },
    );
    try {
      await writing;
    } finally {
      writing = undefined;
    }
  }

  const timer = setInterval(() => {
    flush().catch(options.onError);
  }, options.intervalMs);
  timer.unref();

  return {
    note(id, at) {
      const previous = noted.get(id);
      if (previous === undefined || previous < at) noted.set(id, at);
    },
    pending: (id) => noted.get(id),
    flush,
    async close() {
      clearInterval(timer);
      await flush();
    },
  };
}
