import { newRandomId, secretHash } from './operator-secrets.js';
import type { Operator } from './operator-repository.js';
import type { SessionRepository } from './session-repository.js';

/** The console's sessions after single sign-on: a random id in an HttpOnly cookie, the session itself in the database. */
export interface ConsoleSessions {
  /** A new session of `operator`; the id is what the cookie holds (returned once, stored only as its hash). */
  start(operator: Operator): Promise<{ sessionId: string; expiresAt: Date }>;
  /** Signs `operatorId` out of a session: it is deleted, and every instance forgets it at once. */
  end(idHash: string, operatorId: string): Promise<void>;
  /** Deletes sessions past their timeouts (run with the other purges). */
  purge(): Promise<void>;
}

export function createConsoleSessions(deps: {
  sessions: SessionRepository;
  /** SESSION_MAX_AGE and SESSION_IDLE_TIMEOUT, in milliseconds. */
  maxAgeMs: number;
  idleMs: number;
  changed: (operatorId: string) => void;
  now: () => number;
}): ConsoleSessions {
  return {
    async start(operator) {
      const sessionId = newRandomId();
      const at = new Date(deps.now());
      const expiresAt = new Date(at.getTime() + deps.maxAgeMs);
      await deps.sessions.insert({ idHash: secretHash(sessionId), operatorId: operator.id, createdAt: at, lastSeenAt: at, expiresAt });
      return { sessionId, expiresAt };
    },
    async end(idHash, operatorId) {
      await deps.sessions.delete(idHash);
      deps.changed(operatorId);
    },
    async purge() {
      const at = deps.now();
      await deps.sessions.purge(new Date(at), new Date(at - deps.idleMs));
    },
  };
}
