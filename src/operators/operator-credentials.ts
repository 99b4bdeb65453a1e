import { TtlCache } from '../cache/ttl-cache.js';
import type { Operator, OperatorRepository } from './operator-repository.js';
import type { OperatorToken, OperatorTokenRepository } from './operator-token-repository.js';
import { csrfTokenOf, secretHash } from './operator-secrets.js';
import type { SessionRepository, StoredSession } from './session-repository.js';
import type { UsageRecorder } from './usage-recorder.js';

/** An operator proven by a personal token or a console session. */
export interface VerifiedOperator {
  operator: Operator;
  credential: 'token' | 'sso';
  token?: { id: string; issuedBy: string; issuedThrough: readonly string[] };
  session?: { idHash: string; csrfToken: string; idleExpiresAt: Date; expiresAt: Date };
}

/**
 * Checks operators' personal tokens and console sessions. Each is found by its SHA-256 and kept in memory for
 * `cacheTtlMs` (CACHE_TTL_MS): a request with a known credential costs a hash and a map lookup, no database
 * round trip and no write (its use is noted for the usage recorders). A revocation, a disabled operator or a
 * signed-out session empties the caches here at once, and on the other instances through the change feed
 * (`invalidate`); the TTL bounds it should a notification be lost. Unknown, revoked, expired and disabled all
 * answer `undefined`: the caller gives them one answer.
 */
export interface OperatorCredentials {
  verifyToken(token: string): Promise<VerifiedOperator | undefined>;
  verifySession(sessionId: string): Promise<VerifiedOperator | undefined>;
  /** What verifyToken/verifySession would answer from memory alone (a locked-out address still gets in with a credential known good). */
  remembered(kind: 'token' | 'session', secret: string): VerifiedOperator | undefined;
  /** Forgets every cached credential (an operator, token or session changed here or on another instance). */
  invalidate(): void;
}

export interface OperatorCredentialsDependencies {
  operators: Pick<OperatorRepository, 'findById'>;
  tokens: Pick<OperatorTokenRepository, 'findByHash'>;
  sessions: Pick<SessionRepository, 'find'>;
  usage: { tokens: UsageRecorder; operators: UsageRecorder; sessions: UsageRecorder };
  cacheTtlMs: number;
  /** SESSION_IDLE_TIMEOUT in milliseconds. */
  sessionIdleMs: number;
  now: () => number;
}

interface KnownToken {
  operator: Operator;
  token: OperatorToken;
}

interface KnownSession {
  operator: Operator;
  session: StoredSession;
  csrfToken: string;
}

export function createOperatorCredentials(deps: OperatorCredentialsDependencies): OperatorCredentials {
  const tokens = new TtlCache<string, KnownToken>(deps.cacheTtlMs, 10_000, deps.now);
  const sessions = new TtlCache<string, KnownSession>(deps.cacheTtlMs, 10_000, deps.now);

  function tokenAnswer(known: KnownToken): VerifiedOperator | undefined {
    const at = deps.now();
    if (known.operator.status !== 'active' || known.token.revokedAt !== null || known.token.expiresAt.getTime() <= at) return undefined;
    deps.usage.tokens.note(known.token.id, new Date(at));
    deps.usage.operators.note(known.operator.id, new Date(at));
    return { operator: known.operator, credential: 'token', token: { id: known.token.id, issuedBy: known.token.createdBy, issuedThrough: known.token.issuedThrough } };
  }

  function lastSeen(known: KnownSession): number {
    const noted = deps.usage.sessions.pending(known.session.idHash);
    return Math.max(known.session.lastSeenAt.getTime(), noted?.getTime() ?? 0);
  }

  function sessionAnswer(known: KnownSession): VerifiedOperator | undefined {
    const at = deps.now();
    if (known.operator.status !== 'active' || known.session.expiresAt.getTime() <= at || lastSeen(known) + deps.sessionIdleMs <= at) return undefined;
    deps.usage.sessions.note(known.session.idHash, new Date(at));
    known.session = { ...known.session, lastSeenAt: new Date(at) };
    deps.usage.operators.note(known.operator.id, new Date(at));
    return {
      operator: known.operator,
      credential: 'sso',
      session: {
        idHash: known.session.idHash,
        csrfToken: known.csrfToken,
        idleExpiresAt: new Date(Math.min(at + deps.sessionIdleMs, known.session.expiresAt.getTime())),
        expiresAt: known.session.expiresAt,
      },
    };
  }

  return {
    async verifyToken(token) {
      const hash = secretHash(token);
      const cached = tokens.get(hash);
      if (cached) return tokenAnswer(cached);
      const stored = await deps.tokens.findByHash(hash);
      if (!stored) return undefined;
      const operator = await deps.operators.findById(stored.operatorId);
      if (!operator) return undefined;
      const known = { operator, token: stored };
      tokens.set(hash, known);
      return tokenAnswer(known);
    },
    async verifySession(sessionId) {
      const hash = secretHash(sessionId);
      const cached = sessions.get(hash);
      if (cached) return sessionAnswer(cached);
      const stored = await deps.sessions.find(hash);
      if (!stored) return undefined;
      const operator = await deps.operators.findById(stored.operatorId);
      if (!operator) return undefined;
      const known = { operator, session: stored, csrfToken: csrfTokenOf(sessionId) };
      sessions.set(hash, known);
      return sessionAnswer(known);
    },
    remembered(kind, secret) {
      if (kind === 'token') {
        const known = tokens.get(secretHash(secret));
        return known && tokenAnswer(known);
      }
      const known = sessions.get(secretHash(secret));
      return known && sessionAnswer(known);
    },
    invalidate() {
      tokens.clear();
      sessions.clear();
    },
  };
}
