import { errors } from '../../errors.js';
import type { OperatorCredentials, VerifiedOperator } from '../../operators/operator-credentials.js';
import type { Actor } from '../../request-context.js';
import type { ThrottleStore } from '../../stores/throttle/throttle-store.js';
import { addressKey } from '../../partners/ip-allowlist.js';

/**
 * How an admin request proves an operator: a personal token (`Authorization: Bearer`) or a console session
 * (its cookie). A credential this instance knows good is checked in memory; any other is looked up, unless
 * the address is locked out. Failures are counted per address (IPv6 per /64) in the shared throttle store,
 * as partners' garbage tokens are, under a key of their own: THROTTLE_MAX_FAILURES within THROTTLE_WINDOW lock
 * the address out (429). Every refusal is the same 401, whether the token is unknown, revoked, expired or its
 * operator disabled. A credential known good still works from a locked-out address, so a neighbour behind the
 * same NAT guessing tokens cannot lock operators out.
 */
export interface OperatorAuthentication {
  /**
   * `fixed` recognizes the credentials of the configuration (ADMIN_TOKEN, METRICS_TOKEN): checked after the
   * lockout like any token, so that they are guessed no faster than an operator's.
   */
  withToken(token: string, clientAddress: string, fixed?: (token: string) => Actor | undefined): Promise<Actor>;
  withSession(sessionId: string, clientAddress: string): Promise<Actor>;
}

export function createOperatorAuthentication(deps: { credentials: OperatorCredentials; throttle: ThrottleStore; now: () => number }): OperatorAuthentication {
  async function authenticate(kind: 'token' | 'session', secret: string, clientAddress: string, fixed?: (token: string) => Actor | undefined): Promise<Actor> {
    const remembered = deps.credentials.remembered(kind, secret);
    if (remembered) return actorOf(remembered);
    const keys = [`admin:${addressKey(clientAddress)}`];
    const locked = await deps.throttle.lockedFor(keys, deps.now());
    if (locked > 0) throw errors.throttled(Math.ceil(locked / 1000));
    const configured = fixed?.(secret);
    if (configured) return configured;
    const verified = kind === 'token' ? await deps.credentials.verifyToken(secret) : await deps.credentials.verifySession(secret);
    if (verified) return actorOf(verified);
    await deps.throttle.recordFailure(keys, deps.now());
    throw errors.adminUnauthorized();
  }
  return {
    withToken: (token, clientAddress, fixed) => authenticate('token', token, clientAddress, fixed),
    withSession: (sessionId, clientAddress) => authenticate('session', sessionId, clientAddress),
  };
}

/** The request's actor for a verified operator: what the audit trail and the permission check read. */
function actorOf({ operator, credential, token, session }: VerifiedOperator): Actor {
  return { credential, id: operator.id, name: operator.name, role: operator.role, ...(token ? { token } : {}), ...(session ? { session } : {}) };
}
