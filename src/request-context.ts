import type { ActorRef } from '@partner-gateway/contract/admin-approvals';
import { roleAllows, type OperatorRole, type Permission } from '@partner-gateway/contract/admin-permissions';
import type { AuditAction } from '@partner-gateway/contract/audit-names';
import type { PartnerUserRole } from '@partner-gateway/contract/partner-users';
import type { ClientCertificate } from './mtls/client-certificate.js';

/** Every method a client authenticates by: the OAuth forms read-client-credentials.ts reads, and mutual TLS. */
export type ClientAuthMethodName = 'private_key_jwt' | 'client_secret_basic' | 'client_secret_post' | 'self_signed_tls_client_auth' | 'tls_client_auth';

/**
 * Everything an operation needs to know about the request it serves, built once at the edge (the HTTP layer's
 * request-context plugin) and passed as one argument: who is calling from where, with which credentials, on
 * which listener, and where the call's audit entry collects what the operation learns. A new transport fact is
 * a field here, never a new positional parameter.
 *
 * @example
 * ```ts
 * const body = await gateway.partnerApi.listBanks(request.query as BanksQuery, request.requestContext);
 * ```
 */
export interface RequestContext {
  /** The request id: in the log line and the audit entry. */
  readonly requestId: string;
  /** The client's address (X-Forwarded-For only from TRUST_PROXY), already known to be readable. */
  readonly clientAddress: string;
  /** The `Authorization` header as sent. */
  readonly authorization: string | undefined;
  /** The `DPoP` header as sent (an array when sent twice, which is refused where it matters). */
  readonly dpop: string | string[] | undefined;
  /** The connection's client certificate: the HTTPS listener's peer, or CLIENT_CERT_HEADER from TRUST_PROXY. */
  readonly certificate: ClientCertificate | undefined;
  /**
   * The public base URL of the listener that served the request, without a trailing slash: what a DPoP proof's
   * `htu` names. PUBLIC_URL on the plain listener; PUBLIC_TLS_URL (else https://127.0.0.1:<TLS_PORT>) on the HTTPS one.
   */
  readonly baseUrl: string;
  /**
   * Other public base URLs of the same listener: on the plain listener, PUBLIC_TLS_URL when a proxy terminates
   * the mutual-TLS alias and forwards it here (PUBLIC_TLS_URL without TLS_PORT), which only the proxy could tell
   * apart. A DPoP proof may name them too.
   */
  readonly baseUrlAliases?: readonly string[] | undefined;
  /** On the admin listener, who acts: set once the admin credential is checked. */
  actor?: Actor;
  /**
   * On the public listener, what a browser presents for the partner portal: the session cookie's id, the
   * `X-CSRF-Token` header and whether the request names another origin than this listener's host.
   */
  readonly browser?: { sessionId: string | undefined; csrfToken: string | undefined; crossOrigin: boolean } | undefined;
  /** On the public listener, the partner user a portal session proves: set once the session is checked. */
  portalUser?: PortalUser;
  /** The OAuth client authentication the request used, as soon as it is read (even if it then fails): the token metrics' label. */
  clientMethod?: ClientAuthMethodName;
  /** What the request's audit entry says beyond what the edge knows, filled in as the call proceeds. */
  readonly audit: AuditNotes;
}

/** What an operation adds to its call's audit entry. */
export interface AuditNotes {
  /** The partner the call concerns: claimed before validation, proven once authenticated. */
  partner?: string;
  /** What the call did (an admin change's before and after; a grant's method and binding). Never a secret. */
  details?: Record<string, unknown>;
  /** The action the entry records when it is not the route's (approving a proposal records the proposal's action). */
  action?: AuditAction;
  /** Who the entry names as having made the change when it is not the actor (an approved proposal: who proposed it). */
  operator?: ActorRef;
  /** Who approved the change (an approved proposal: the actor who approved it). */
  approver?: ActorRef;
  /**
   * How the entry may be counted with its like rather than written alone (AuditEntry.aggregate): for what
   * anyone may repeat at will, so that a flood costs the trail a row per address and window, not per call.
   */
  aggregate?: { key: string; windowMs?: number };
}

/** A partner user acting through a portal session: one partner's person, with their role (docs/portal-security.md). */
export interface PortalUser {
  userId: string;
  name: string;
  role: PartnerUserRole;
  partnerId: string;
  partnerLogin: string;
  /** The session's CSRF token, which its changes carry as X-CSRF-Token. */
  csrfToken: string;
  /** The session's id hash, for signing out of it. */
  sessionHash: string;
  expiresAt: Date;
}

/**
 * Who acts on the admin API: an operator (with a personal token, or signed in to the console by single sign-on),
 * the bootstrap ADMIN_TOKEN, or METRICS_TOKEN (which reads /metrics only). Everything that records the actor
 * names the operator by id and name, and says which credential proved it.
 */
export interface Actor {
  /** The credential that proved it: a personal `token`, an `sso` console session, the `bootstrap` ADMIN_TOKEN, or `metrics`. */
  credential: 'token' | 'sso' | 'bootstrap' | 'metrics';
  /** A stable identifier for the audit trail: the operator id, or `bootstrap` / `metrics`. */
  id: string;
  /** A human-readable name for the audit trail. */
  name: string;
  /** The operator's role; null for the bootstrap credential (every permission) and for metrics (none but /metrics). */
  role: OperatorRole | null;
  /**
   * For a personal token: its id, who created it, and every other operator through whose credential it was
   * created, the root first (see operatorsBehind).
   */
  token?: { id: string; issuedBy: string; issuedThrough: readonly string[] };
  /** For a console session: the session, which signing out ends, and the CSRF token its changes must carry. */
  session?: { idHash: string; csrfToken: string; idleExpiresAt: Date; expiresAt: Date };
}

/**
 * Whether the actor holds `permission`: its role's, every one for the bootstrap credential, none for metrics
 * (which reads GET /metrics only, see admin-auth).
 *
 * @example
 * ```ts
 * actorAllows({ credential: 'token', id, name: 'alice', role: 'viewer' }, 'partners.write'); // false
 * ```
 */
export function actorAllows(actor: Actor, permission: Permission): boolean {
  if (actor.credential === 'bootstrap') return true;
  return actor.role !== null && roleAllows(actor.role, permission);
}

/** The actor as the audit trail and proposals name it (with the operators its token was created through). */
export function actorRef(actor: Actor): ActorRef {
  const ref: ActorRef = { id: actor.id, name: actor.name, credential: actor.credential === 'metrics' ? 'bootstrap' : actor.credential };
  return actor.token && actor.token.issuedThrough.length > 0 ? { ...ref, issuedThrough: [...actor.token.issuedThrough] } : ref;
}

/**
 * Every operator who answers for what an actor does: the named operator and each operator its token was created
 * through. Maker-checker refuses an approval when the approver's and the proposer's share anyone, so no chain of
 * tokens, however long, lets one person approve their own proposal.
 *
 * @example
 * ```ts
 * operatorsBehind({ id: 'bob', name: 'bob', credential: 'token', issuedThrough: ['alice'] }); // ['alice', 'bob']
 * ```
 */
export function operatorsBehind(ref: ActorRef): string[] {
  return [...new Set([...(ref.issuedThrough ?? []), ref.id])];
}

/**
 * The chain a personal token records when `actor` creates it for `operatorId`: everyone behind the actor but that
 * operator. The bootstrap credential hands an operator a token of its own, with an empty chain.
 */
export function chainOfNewToken(actor: Actor, operatorId: string): string[] {
  if (actor.credential === 'bootstrap') return [];
  return operatorsBehind(actorRef(actor)).filter((id) => id !== operatorId);
}
