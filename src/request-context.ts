import type { ClientAuthMethodName } from './auth/credentials/read-client-credentials.js';
import type { ClientCertificate } from './mtls/client-certificate.js';

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
  /** The public base URL of the listener that served the request, without a trailing slash: what a DPoP proof's `htu` names. */
  readonly baseUrl: string;
  /** On the admin listener, who acts: set once the admin credential is checked. */
  actor?: Actor;
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
}

/** Who acts on the admin API. */
export interface Actor {
  /** The credential that proved it: the bootstrap ADMIN_TOKEN, or METRICS_TOKEN (which reads /metrics only). */
  credential: 'bootstrap' | 'metrics';
  /** A stable identifier for the audit trail. */
  id: string;
  /** A human-readable name for the audit trail. */
  name: string;
}
