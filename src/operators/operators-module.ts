import type { Kysely } from 'kysely';
import { readRoleMap, adminPublicUrl, type Config } from '../config.js';
import type { ChangeFeed } from '../db/change-feed.js';
import type { Database } from '../db/schema.js';
import type { GatewayEvents } from '../gateway-events.js';
import { SSO_CALLBACK_PATH } from '@partner-gateway/contract/paths';
import { createConsoleSessions, type ConsoleSessions } from './console-sessions.js';
import { createOperatorAdmin, type OperatorAdmin } from './operator-admin.js';
import { createOperatorCredentials, type OperatorCredentials } from './operator-credentials.js';
import { createOperatorRepository } from './operator-repository.js';
import { createOperatorTokenRepository } from './operator-token-repository.js';
import { createSessionRepository } from './session-repository.js';
import { createSsoClient } from './sso/sso-client.js';
import { createSsoSignIn, SSO_LOGIN_MAX_MS, type SsoSignIn, type SsoStatusChange } from './sso/sso-sign-in.js';
import { createSsoLoginRepository } from './sso-login-repository.js';
import { createUsageRecorder } from './usage-recorder.js';

/** How often last-use times (tokens, operators, console sessions) are written. */
const USAGE_WRITE_MS = 15_000;

/** Operators, wired: their credentials (personal tokens, console sessions), the admin operations and single sign-on. */
export interface OperatorsModule {
  credentials: OperatorCredentials;
  admin: OperatorAdmin;
  sessions: ConsoleSessions;
  /** Single sign-on for the console; undefined unless OIDC_ISSUER is set. */
  sso: SsoSignIn | undefined;
  /** Writes the last-use times noted so far (the lists show them at once). */
  flushUsage(): Promise<void>;
  /** Deletes expired console sessions and abandoned sign-ins. */
  purgeExpired(): Promise<void>;
  close(): Promise<void>;
}

/**
 * Builds the operators module over `db` and subscribes it to the change feed: a token revoked, an operator
 * disabled or a session ended on another instance is forgotten here at once.
 *
 * @example
 * ```ts
 * const operators = createOperators(handle.db, feed, config, Date.now, events, { statusChanged: (change) => audit.writer.record(ssoStatusEntry(change, Date.now())), addressKey });
 * const alice = await operators.admin.create({ name: 'alice', role: 'operator' }, 'bootstrap');
 * const { token } = await operators.admin.createToken(alice.id, { label: 'laptop' }, BOOTSTRAP_ISSUER);
 * ```
 */
export function createOperators(
  db: Kysely<Database>,
  feed: ChangeFeed,
  config: Config,
  now: () => number,
  events: GatewayEvents,
  sso: {
    /** Told when single sign-on disabled or enabled an operator (it has no request to be audited by). */
    statusChanged?: (change: SsoStatusChange) => void;
    /** The key a client address's pending sign-ins are counted under (the brute-force defence's: IPv6 by its /64). */
    addressKey?: (clientAddress: string) => string;
  } = {},
): OperatorsModule {
  const operators = createOperatorRepository(db);
  const tokens = createOperatorTokenRepository(db);
  const sessionRows = createSessionRepository(db);
  const recorder = (write: (uses: Array<{ id: string; at: Date }>) => Promise<void>) =>
    createUsageRecorder(write, { intervalMs: USAGE_WRITE_MS, onError: (error) => events({ type: 'operator_usage_write_failed', error }) });
  const usage = { tokens: recorder((uses) => tokens.recordUse(uses)), operators: recorder((uses) => operators.recordUse(uses)), sessions: recorder((uses) => sessionRows.recordUse(uses)) };
  const credentials = createOperatorCredentials({
    operators,
    tokens,
    sessions: sessionRows,
    usage,
    cacheTtlMs: config.CACHE_TTL_MS,
    sessionIdleMs: config.SESSION_IDLE_TIMEOUT * 1000,
    ssoSignInMaxAgeMs: config.OIDC_TOKEN_SIGN_IN_MAX_AGE * 1000,
    now,
  });
  /** `operatorId`'s credentials changed: forgotten here at once, on the other instances by the feed. */
  const changed = (operatorId: string) => {
    credentials.invalidate(operatorId);
    feed.publish({ kind: 'operators', operatorId });
  };
  // A change without an operator (from an instance of an older version, during a rolling update) forgets them all.
  feed.subscribe('operators', (change) => credentials.invalidate(change.operatorId));
  const sessions = createConsoleSessions({ sessions: sessionRows, maxAgeMs: config.SESSION_MAX_AGE * 1000, idleMs: config.SESSION_IDLE_TIMEOUT * 1000, changed, now });
  const logins = createSsoLoginRepository(db);
  const roleMap = readRoleMap(config.OIDC_ROLE_MAP);
  const signIn =
    config.OIDC_ISSUER !== undefined && config.OIDC_CLIENT_ID !== undefined && 'pairs' in roleMap
      ? createSsoSignIn({
          client: createSsoClient({
            issuer: config.OIDC_ISSUER,
            clientId: config.OIDC_CLIENT_ID,
            clientSecret: config.OIDC_CLIENT_SECRET,
            privateKeyFile: config.OIDC_PRIVATE_KEY_FILE,
            redirectUri: `${adminPublicUrl(config)}${SSO_CALLBACK_PATH}`,
            scopes: config.OIDC_SCOPES,
          }),
          logins,
          operators,
          tokens,
          sessionRows,
          sessions,
          statusChanged: sso.statusChanged ?? (() => {}),
          addressKey: sso.addressKey ?? ((address) => address),
          issuer: config.OIDC_ISSUER,
          roleClaim: config.OIDC_ROLE_CLAIM,
          nameClaim: config.OIDC_NAME_CLAIM,
          roleMap: roleMap.pairs,
          changed,
          now,
        })
      : undefined;
  const flushUsage = async () => {
    await Promise.all([usage.tokens.flush(), usage.operators.flush(), usage.sessions.flush()]);
  };
  return {
    credentials,
    admin: createOperatorAdmin({ operators, tokens, sessions: sessionRows, changed, now }),
    sessions,
    sso: signIn,
    flushUsage,
    async purgeExpired() {
      await sessions.purge();
      await logins.purge(new Date(now() - SSO_LOGIN_MAX_MS));
    },
    async close() {
      await Promise.all([usage.tokens.close(), usage.operators.close(), usage.sessions.close()]);
    },
  };
}
