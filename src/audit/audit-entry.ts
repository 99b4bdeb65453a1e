/** One line of the audit trail. Never carries a password, a JWE, a token or a hash. */
export interface AuditEntry {
  at: Date;
  /** login, refresh, logout, banks, or an admin change such as partner.update. */
  action: string;
  outcome: 'success' | 'failure';
  status: number | null;
  /** The partner concerned: proven on success, claimed on failure. */
  partner: string | null;
  clientAddress: string | null;
  /** Why it failed (wrong_password, ip_not_allowed, replayed_jti, ...). */
  reason: string | null;
  requestId: string | null;
  /** For admin changes: what changed, before and after. */
  details: Record<string, unknown> | null;
}

export interface StoredAuditEntry extends AuditEntry {
  id: string;
}
