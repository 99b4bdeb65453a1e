import { TtlCache } from '../cache/ttl-cache.js';
import { errors } from '../errors.js';
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
 * answer `undefined`: the caller gives them one answer. A token of an operator created by single sign-on whose
 * last sign-in through it is older than `ssoSignInMaxAgeMs` throws `sso_sign_in_required` instead: its holder
 * is told how to make it work again.
 */
export interface OperatorCredentials {
  verifyToken(token: string): Promise<VerifiedOperator | undefined>;
  verifySession(sessionId: string): Promise<VerifiedOperator | undefined>;
  /** What verifyToken/verifySession would answer from memory alone (a locked-out address still gets in with a credential known good). */
  remembered(kind: 'token' | 'session', secret: string): VerifiedOperator | undefined;
  /**
   * Forgets the cached credentials of `operatorId` (it, one of its tokens or sessions changed here or on another
   * instance), or every one without it. Scoped, so that another operator's change never makes an instance forget
   * the credentials it knows good: a locked-out address (a neighbour guessing tokens) keeps letting them in.
   */
  invalidate(operatorId?: string): void;
}

export interface OperatorCredentialsDependencies {
  operators: Pick<OperatorRepository, 'findById'>;
  tokens: Pick<OperatorTokenRepository, 'findByHash'>;
  sessions: Pick<SessionRepository, 'find'>;
  usage: { tokens: UsageRecorder; operators: UsageRecorder; sessions: UsageRecorder };
  cacheTtlMs: number;
  /** SESSION_IDLE_TIMEOUT in milliseconds. */
  sessionIdleMs: number;
  /** OIDC_TOKEN_SIGN_IN_MAX_AGE in milliseconds: how long an SSO operator's tokens work after its last sign-in through SSO. */
  ssoSignInMaxAgeMs: number;
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
  // Bumped by every invalidation: a lookup that read the database before one (an operator disabled meanwhile)
  // reads again rather than cache what it read, or the stale row would outlive the notification.
  let generation = 0;

  /** `read`, remembered unless an invalidation came meanwhile: then read once more (after it), and remember that. */
  async function lookUp<T>(read: () => Promise<T | undefined>, remember: (value: T) => void): Promise<T | undefined> {
    for (let attempt = 1; ; attempt += 1) {
      const before = generation;
      const value = await read();
      if (value === undefined) return undefined;
      if (generation === before || attempt === 2) {
        if (generation === before) remember(value);
        return value;
      }
    }
  }

  function tokenAnswer(known: KnownToken): VerifiedOperator | undefined {
    const at = deps.now();
    if (known.operator.status !== 'active' || known.token.revokedAt !== null || known.token.expiresAt.getTime() <= at) return undefined;
    if (known.operator.ssoSubject !== null && (known.operator.lastSsoSignInAt?.getTime() ?? 0) + deps.ssoSignInMaxAgeMs <= at) throw errors.ssoSignInRequired();
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
      const known = await lookUp(
        async () => {
          const stored = await deps.tokens.findByHash(hash);
          const operator = stored && (await deps.operators.findById(stored.operatorId));
          return stored && operator ? { operator, token: stored } : undefined;
        },
        (value) => tokens.set(hash, value),
      );
      return known && tokenAnswer(known);
    },
    async verifySession(sessionId) {
      const hash = secretHash(sessionId);
      const cached = sessions.get(hash);
      if (cached) return sessionAnswer(cached);
      const known = await lookUp(
        async () => {
          const stored = await deps.sessions.find(hash);
          const operator = stored && (await deps.operators.findById(stored.operatorId));
          return stored && operator ? { operator, session: stored, csrfToken: csrfTokenOf(sessionId) } : undefined;
        },
        (value) => sessions.set(hash, value),
      );
      return known && sessionAnswer(known);
    },
    remembered(kind, secret) {
      if (kind === 'token') {
        const known = tokens.get(secretHash(secret));
        return known && tokenAnswer(known);
      }
      const known = sessions.get(secretHash(secret));
      return known && sessionAnswer(known);
    },
    invalidate(operatorId) {
      generation += 1;
      if (operatorId === undefined) {
        tokens.clear();
        sessions.clear();
        return;
      }
      tokens.deleteWhere((known) => known.operator.id === operatorId);
      sessions.deleteWhere((known) => known.operator.id === operatorId);
    },
  };
}
