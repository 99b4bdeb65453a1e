/**
 * A start that cannot go on because of something outside the gateway that a setting names (a database that
 * cannot be reached or opened): `src/main.ts` reports its message as one log line naming the setting, without
 * a stack trace, and exits non-zero. The message never holds a credential.
 *
 * @example
 * ```ts
 * throw new StartupProblem('DATABASE_URL', 'DATABASE_URL: cannot reach PostgreSQL at db.example:5432/gateway (getaddrinfo ENOTFOUND db.example)');
 * ```
 */
export class StartupProblem extends Error {
  override name = 'StartupProblem';
  constructor(
    readonly setting: string,
    message: string,
  ) {
    super(message);
  }
}

/** An error's cause in a few words: its code and message, credentials aside (callers pass driver errors, which name hosts, not passwords). */
export function causeOf(error: unknown): string {
  const { code, message } = error as { code?: unknown; message?: unknown };
  const text = typeof message === 'string' && message !== '' ? message : String(error);
  const words = text.split('\n')[0]!.slice(0, 300);
  return typeof code === 'string' && !words.includes(code) ? `${code}: ${words}` : words;
}
