/**
 * The names the audit trail records, written once: the server records them, the admin API documents them
 * and the console offers them as filters.
 */

/** The partner API's own calls (admin changes are not a partner's calls). */
export const PARTNER_CALL_ACTIONS = ['login', 'refresh', 'logout', 'banks', 'token', 'introspect', 'revoke'] as const;

/**
 * The self-service API's calls (a partner's own automation, `/api/v1/self/…`): reads and the changes a partner
 * makes to its own credentials and webhook endpoints, audited under the partner as its other calls are.
 */
export const SELF_SERVICE_ACTIONS = [
  'self.keys',
  'self.keys.rotate',
  'self.calls',
  'self.usage',
  'self.settings',
  'self.allowlist.set',
  'self.password.rotate',
  'self.certificates',
  'self.certificates.rotate',
  'self.webhooks',
  'self.webhooks.create',
  'self.webhooks.delete',
  'self.webhooks.rotate',
  'self.webhooks.attempts',
  'self.webhooks.replay',
  'self.users',
  'self.users.invite',
  'self.users.update',
  'self.users.delete',
  'portal.invitation.accept',
  'portal.sign-in',
  'portal.sign-out',
] as const;

/** What the admin API changes. */
export const ADMIN_ACTIONS = [
  'partner.create',
  'partner.update',
  'partner.delete',
  'partner.jwks.set',
  'partner.jwks.delete',
  'partner.certificates.set',
  'partner.certificates.delete',
  'partner.webhook.create',
  'partner.webhook.delete',
  'partner.webhook.rotate',
  'partner.webhook.replay',
  'partner.users.invite',
  'partner.users.delete',
  'bank.add',
  'bank.remove',
  'bank.edit',
  'banks.replace',
  'banks.import',
  'banks.restore',
  'banks.admit',
  'banks.exclude',
  'banks.unexclude',
  'banks.exclusion.add',
  'banks.exclusion.remove',
  'banks.participants.import',
  'banks.participants.confirm',
  'banks.participants.reject',
  'banks.participants.sync',
  'banks.sync',
  'banks.sync.approve',
  'banks.sync.reject',
  'key.rotate',
  'key.revoke',
  'operator.create',
  'operator.update',
  'operator.token.create',
  'operator.token.revoke',
  'approval.approve',
  'approval.reject',
  'approvals.configure',
  'audit.search',
  'audit.export',
  'database.backup',
  // An admin request whose credential was refused (or whose address is locked out), on a route that records no action of its own.
  'admin.auth',
  'session.sign-in',
  'session.sign-out',
] as const;

/** Every action an audit entry can carry. */
export const AUDIT_ACTIONS = [...PARTNER_CALL_ACTIONS, ...SELF_SERVICE_ACTIONS, ...ADMIN_ACTIONS] as const;
export type AuditAction = (typeof AUDIT_ACTIONS)[number];

/** Why an authentication failed. Never shown to the client (they all answer the same 401); kept for logs and audit. */
export const AUTH_FAILURE_REASONS = [
  'unknown_partner',
  'wrong_password',
  'undecryptable',
  'unsupported_jwe_header',
  'unknown_kid',
  'iat_out_of_window',
  'replayed_jti',
  'invalid_jti',
  'invalid_token',
  'malformed_authorization',
  'partner_mismatch',
  'token_revoked',
  'invalid_refresh_token',
  'refresh_token_reused',
  'throttled',
  'bad_admin_token',
  'malformed_dpop_proof',
  'dpop_key_refused',
  'dpop_signature_invalid',
  'dpop_htm_mismatch',
  'dpop_htu_mismatch',
  'dpop_iat_out_of_window',
  'dpop_ath_mismatch',
  // A DPoP proof's other checks, each its own reason (RFC 9449 sections 4.3 and 8).
  'dpop_typ_invalid',
  'dpop_alg_refused',
  'dpop_jti_invalid',
  'dpop_nonce_missing',
  'dpop_nonce_invalid',
  'malformed_client_assertion',
  'client_assertion_key_unknown',
  'client_assertion_invalid',
  'client_assertion_audience',
  'client_assertion_type',
  'client_assertion_lifetime',
  'client_assertion_replayed',
  'dpop_proof_replayed',
  // A JWE, client assertion or DPoP proof issued before the replay state was lost (a crash, a Redis restart).
  'replay_state_lost',
  'dpop_key_mismatch',
  'dpop_required',
  'dpop_bound_token_as_bearer',
  'password_not_allowed',
  'private_key_jwt_not_allowed',
  'no_client_authentication',
  'multiple_client_authentications',
  'jwks_unavailable',
  // Mutual TLS (RFC 8705): verifyClientCertificate's reasons, the method policy, and a bound token's connection.
  'no_client_certificate',
  'certificate_not_registered',
  'certificate_not_valid_now',
  'no_subject_registered',
  'certificate_not_issued_by_trusted_ca',
  'issuer_not_valid_now',
  'certificate_not_for_client_auth',
  'subject_mismatch',
  'self_signed_tls_client_auth_not_allowed',
  'tls_client_auth_not_allowed',
  'certificate_binding_mismatch',
] as const;
export type AuthFailureReason = (typeof AUTH_FAILURE_REASONS)[number];

/**
 * The reasons an operator filters the audit trail by most: the authentication failures partners cause and
 * the refusals that follow a proven password (an entry's reason is otherwise the error's code).
 */
export const COMMON_AUDIT_REASONS = [
  'unknown_partner',
  'wrong_password',
  'blocked',
  'ip_not_allowed',
  'reward_type_unavailable',
  'throttled',
  'undecryptable',
  'unknown_kid',
  'iat_out_of_window',
  'replayed_jti',
  'invalid_jti',
  'invalid_token',
  'token_revoked',
  'invalid_refresh_token',
  'refresh_token_reused',
  'partner_mismatch',
  'password_not_allowed',
  'dpop_required',
  'client_assertion_invalid',
  'client_assertion_replayed',
  'dpop_proof_replayed',
  'certificate_not_registered',
  'subject_mismatch',
  'certificate_binding_mismatch',
  'validation_failed',
] as const;
