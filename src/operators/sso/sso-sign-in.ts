import { randomUUID } from 'node:crypto';
import * as oidc from 'openid-client';
import type { OperatorRole } from '@partner-gateway/contract/admin-permissions';
import { errors } from '../../errors.js';
import type { ConsoleSessions } from '../console-sessions.js';
import { newRandomId, secretHash } from '../operator-secrets.js';
import type { Operator, OperatorRepository } from '../operator-repository.js';
import type { OperatorTokenRepository } from '../operator-token-repository.js';
import type { SessionRepository } from '../session-repository.js';
import type { SsoLoginRepository } from '../sso-login-repository.js';
import type { SsoClient } from './sso-client.js';

/** How long a sign-in may take between the redirect to the identity provider and its callback. */
export const SSO_LOGIN_MAX_MS = 10 * 60_000;

/**
 * Sign-ins begun within SSO_LOGIN_MAX_MS and not finished, from one client address (IPv6: its /64, as the
 * brute-force defence counts it, so that one customer's 2^64 addresses are one) and from all of them: each
 * `/sso/start` writes a row anyone who reaches the admin listener could otherwise add without end. A person
 * signing in has one or two under way; an office behind one address, a few more. Beyond either bound a new
 * start is refused (429 sso_pending_limit) until the oldest expire or are finished. Counted and written under one
 * lock: starts racing each other cannot pass a bound together.
 */
export const SSO_PENDING_PER_ADDRESS = 20;
export const SSO_PENDING_MAX = 1_000;

/** How a callback ended: a session for the operator, or a refusal with the page that says why. */
export type SsoOutcome =
  | { kind: 'signed-in'; sessionId: string; expiresAt: Date; operator: Operator; created: boolean }
  | {
      kind: 'refused';
      status: 400 | 403 | 502;
      /** For the audit trail and the log: sso_state, sso_provider_error, sso_unverified, sso_unmapped, operator_disabled. */
      reason: string;
      title: string;
      message: string;
      /** Who signed in at the provider, when known. */
      who?: string;
    };

/**
 * Single sign-on changed an operator's status on its own: a known subject came back with no mapped role (disabled,
 * its tokens revoked and sessions ended), or one it had so disabled came back with a mapped role (enabled). What
 * the audit trail keeps of it: who, at which provider, and why; never a token.
 */
export interface SsoStatusChange {
  operator: Operator;
  status: 'disabled' | 'active';
  /** sso_unmapped (disabled) or sso_mapped (enabled again). */
  reason: 'sso_unmapped' | 'sso_mapped';
  issuer: string;
  subject: string;
  /** The role claim's values the identity provider sent. */
  claimValues: string[];
  /** Personal tokens revoked by the disable (0 for an enable). */
  tokensRevoked: number;
}

/** The console's single sign-on, from the redirect to the provider to a console session. */
export interface SsoSignIn {
  /**
   * A new sign-in: the provider's authorization URL to send the browser to, and the `state` the browser keeps in
   * its flow cookie (the callback must bring both back).
   */
  start(clientAddress: string): Promise<{ redirect: URL; state: string }>;
  /** The callback: `callbackUrl` as the browser requested it, `flowState` from the flow cookie. */
  finish(callbackUrl: URL, flowState: string | undefined): Promise<SsoOutcome>;
}

export interface SsoSignInDependencies {
  client: SsoClient;
  logins: SsoLoginRepository;
  operators: Pick<OperatorRepository, 'findBySso' | 'insert' | 'update' | 'nameTaken'>;
  tokens: Pick<OperatorTokenRepository, 'revokeAllFor'>;
  sessionRows: Pick<SessionRepository, 'deleteFor'>;
  sessions: ConsoleSessions;
  /** Told when single sign-on disabled or enabled an operator (the audit trail). */
  statusChanged: (change: SsoStatusChange) => void;
  /** The key a client address's pending sign-ins are counted and stored under. */
  addressKey: (clientAddress: string) => string;
  issuer: string;
  roleClaim: string;
  nameClaim: string;
  /** OIDC_ROLE_MAP: claim values and roles, first match wins. */
  roleMap: ReadonlyArray<[string, OperatorRole]>;
  /** Told when an operator changed at sign-in (its cached credentials must be read again, here and on every instance). */
  changed: (operatorId: string) => void;
  now: () => number;
}

export function createSsoSignIn(deps: SsoSignInDependencies): SsoSignIn {
  const refused = (status: 400 | 403 | 502, reason: string, title: string, message: string, who?: string): SsoOutcome => ({ kind: 'refused', status, reason, title, message, ...(who ? { who } : {}) });

  return {
    async start(address) {
      const state = newRandomId();
      const nonce = oidc.randomNonce();
      const codeVerifier = oidc.randomPKCECodeVerifier();
      const at = deps.now();
      const stored = await deps.logins.insertWithin(secretHash(state), { codeVerifier, nonce, createdAt: new Date(at) }, deps.addressKey(address), {
        since: new Date(at - SSO_LOGIN_MAX_MS),
        perAddress: SSO_PENDING_PER_ADDRESS,
        total: SSO_PENDING_MAX,
      });
      // Refused before the identity provider is asked anything: a flood past the bound never reaches it.
      if (stored !== 'stored') throw errors.ssoPendingLimit(stored, 60);
      try {
        return { redirect: await deps.client.authorizationUrl({ state, nonce, codeVerifier }), state };
      } catch (error) {
        // The provider could not be reached: the sign-in never began, so it holds no place under the bound.
        await deps.logins.take(secretHash(state));
        throw error;
      }
    },
    async finish(callbackUrl, flowState) {
      const providerError = callbackUrl.searchParams.get('error');
      if (providerError !== null) {
        const description = callbackUrl.searchParams.get('error_description');
        return refused(400, 'sso_provider_error', 'The identity provider did not sign you in', `It answered ${providerError}${description ? ` (${description})` : ''}. Try again, or ask your identity provider's administrators.`);
      }
      const state = callbackUrl.searchParams.get('state');
      const restart = 'This sign-in was not started in this browser, was already used, or took longer than ten minutes. Start again from the console.';
      if (state === null || flowState === undefined || state !== flowState) return refused(400, 'sso_state', 'This sign-in cannot be finished', restart);
      const login = await deps.logins.take(secretHash(state));
      if (!login || deps.now() - login.createdAt.getTime() > SSO_LOGIN_MAX_MS) return refused(400, 'sso_state', 'This sign-in cannot be finished', restart);
      let claims: Record<string, unknown>;
      try {
        claims = await deps.client.finish(callbackUrl, { state, nonce: login.nonce, codeVerifier: login.codeVerifier }, deps.roleClaim);
      } catch {
        return refused(502, 'sso_unverified', 'The identity provider\'s answer could not be verified', 'The sign-in was refused because its tokens did not check out (signature, issuer, audience, nonce or PKCE). Start again; if it keeps failing, tell the gateway\'s administrators.');
      }
      const subject = String(claims.sub);
      const name = nameOf(claims, deps.nameClaim);
      const values = claimValues(claims[deps.roleClaim]);
      const role = deps.roleMap.find(([value]) => values.includes(value))?.[1];
      if (role === undefined) {
        const mapped = deps.roleMap.map(([value]) => value).join(', ');
        // The identity provider is the source of truth for the operators it vouches for: one it no longer gives a
        // role loses what it held in the gateway too, rather than keeping a year-long token of its old role.
        const known = await deps.operators.findBySso(deps.issuer, subject);
        const disabled = known !== undefined && known.status === 'active' && (await disable(known, subject, values));
        return refused(
          403,
          'sso_unmapped',
          'Your account has no role in the admin console',
          `You signed in as ${name}, but your ${deps.roleClaim} (${values.length > 0 ? values.join(', ') : 'none'}) include none of those the console maps to a role (${mapped}). Ask a security operator to add you to one of them.${disabled ? ' Your operator account in the gateway is disabled, its personal tokens revoked and its console sessions ended.' : ''}`,
          name,
        );
      }
      const existing = await deps.operators.findBySso(deps.issuer, subject);
      let operator = existing ?? (await provision(subject, name, role));
      // Only an operator single sign-on itself disabled comes back with its role; one a security operator disabled stays disabled.
      const reEnabled = operator.status !== 'active' && operator.ssoDisabledAt !== null;
      if (operator.status !== 'active' && !reEnabled) return refused(403, 'operator_disabled', 'Your operator account is disabled', `You signed in as ${operator.name}, whose account in the gateway is disabled. Ask a security operator.`, operator.name);
      // The identity provider decides the role (a change there applies at this sign-in) and vouches for the person
      // again: the operator's personal tokens work for OIDC_TOKEN_SIGN_IN_MAX_AGE from now.
      operator =
        (await deps.operators.update(operator.id, { role, lastSsoSignInAt: new Date(deps.now()), ...(reEnabled ? { status: 'active' as const, ssoDisabledAt: null } : {}) })) ?? operator;
      deps.changed(operator.id);
      if (reEnabled) deps.statusChanged({ operator, status: 'active', reason: 'sso_mapped', issuer: deps.issuer, subject, claimValues: values, tokensRevoked: 0 });
      const session = await deps.sessions.start(operator);
      return { kind: 'signed-in', sessionId: session.sessionId, expiresAt: session.expiresAt, operator, created: existing === undefined };
    },
  };

  /** Disables an operator the identity provider no longer maps to a role: its tokens revoked, its sessions ended, on every instance. */
  async function disable(operator: Operator, subject: string, values: string[]): Promise<boolean> {
    const at = new Date(deps.now());
    const after = await deps.operators.update(operator.id, { status: 'disabled', ssoDisabledAt: at });
    if (!after) return false;
    const tokensRevoked = await deps.tokens.revokeAllFor(operator.id, at);
    await deps.sessionRows.deleteFor(operator.id);
    deps.changed(operator.id);
    deps.statusChanged({ operator: after, status: 'disabled', reason: 'sso_unmapped', issuer: deps.issuer, subject, claimValues: values, tokensRevoked });
    return true;
  }

  /** The operator a first sign-in creates, named after the name claim (made unique if another operator has it). */
  async function provision(subject: string, name: string, role: OperatorRole): Promise<Operator> {
    let chosen = name;
    if (await deps.operators.nameTaken(chosen)) chosen = `${name} (${subject.slice(0, 12)})`;
    if (await deps.operators.nameTaken(chosen)) chosen = `${name} (${randomUUID().slice(0, 8)})`;
    const created = await deps.operators.insert({ id: randomUUID(), name: chosen, role, ssoIssuer: deps.issuer, ssoSubject: subject });
    // Two first sign-ins of one person at once: the second finds the first's row.
    return created ?? (await deps.operators.findBySso(deps.issuer, subject))!;
  }
}

function nameOf(claims: Record<string, unknown>, nameClaim: string): string {
  for (const candidate of [claims[nameClaim], claims.email, claims.sub]) {
    if (typeof candidate === 'string' && candidate.trim().length > 0) return candidate.trim().replace(/[\u0000-\u001f\u007f]/g, '').slice(0, 80);
  }
  return 'unnamed';
}

/** A role claim's values: a string (space- or comma-separated) or a list of strings. */
function claimValues(claim: unknown): string[] {
  if (typeof claim === 'string') return claim.split(/[\s,]+/).filter((value) => value.length > 0);
  if (Array.isArray(claim)) return claim.filter((value): value is string => typeof value === 'string');
  return [];
}
