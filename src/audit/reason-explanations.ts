/**
 * A refusal's reason in words, for the partner's own request log: what happened and what to change. The
 * partner sees these only for its own calls; the calls' answers themselves stay as uniform as they are (every
 * 401 alike), so that nobody else learns from them what the partner's log says.
 */
const EXPLANATIONS: Record<string, string> = {
  unknown_partner: 'No partner has this login: check the login (or partnerName) your client sends.',
  wrong_password: 'The API password is wrong: check the password your client sends, or ask for a new one.',
  blocked: 'Your partner account is blocked: contact the provider.',
  ip_not_allowed: 'The call came from an address outside your IP allowlist: call from an allowed address, or ask the provider to add this one.',
  reward_type_unavailable: 'Your contract does not include this reward type: ask the provider to add it.',
  throttled: 'Too many failed attempts from this address or for this login: wait for the lockout to end (Retry-After), then fix the credentials before trying again.',
  undecryptable: 'partnerPassword could not be decrypted: encrypt it with the current key of /.well-known/jwks.json (RSA-OAEP-256, A256GCM).',
  unsupported_jwe_header: 'partnerPassword uses an unsupported JWE algorithm: use alg RSA-OAEP-256 and enc A256GCM.',
  unknown_kid: 'partnerPassword names a key the gateway does not hold: fetch /.well-known/jwks.json again and encrypt with its current key.',
  iat_out_of_window: 'The encrypted password is too old or dated in the future: encrypt it afresh for each call and check your clock.',
  replayed_jti: 'This encrypted password was sent before: encrypt it afresh (a new jti) for every call.',
  invalid_jti: 'The encrypted password carries no usable jti: give each encryption a unique jti.',
  invalid_token: 'The access token is invalid or expired: take a new one (login or the token endpoint).',
  malformed_authorization: 'The Authorization header is not "Bearer <token>" or "DPoP <token>": send it in one of those forms.',
  partner_mismatch: 'The access token belongs to another login than partnerName: send your own token, or leave partnerName out.',
  token_revoked: 'The access token was revoked (logout, a new password, blocking, or a revoked key): take a new one.',
  invalid_refresh_token: 'The refresh token is invalid or expired: log in again.',
  refresh_token_reused: 'A refresh token was used twice, so its whole family was revoked: log in again, and use each refresh token once.',
  password_not_allowed: 'Your account may not use its password here: authenticate with your key (private_key_jwt) or certificate.',
  private_key_jwt_not_allowed: 'Your account may not use private_key_jwt: authenticate as the provider configured it.',
  dpop_required: 'Your account must use bound tokens: send a DPoP proof (or use your client certificate) when taking the token.',
  dpop_bound_token_as_bearer: 'A DPoP-bound token was sent as Bearer: send it as "Authorization: DPoP <token>" with a fresh proof.',
  client_assertion_invalid: 'The client assertion did not verify: sign it with a registered key that has not expired, with iss and sub your login.',
  client_assertion_key_unknown: 'The client assertion was signed by a key the gateway does not know (or one retired by a rotation): sign with a registered key.',
  client_assertion_audience: 'The client assertion names the wrong audience: set aud to the issuer identifier of the metadata.',
  client_assertion_lifetime: 'The client assertion lives too long or is expired: make exp at most 5 minutes after iat.',
  client_assertion_replayed: 'This client assertion was used before: sign a new one (a new jti) for every token request.',
  dpop_proof_replayed: 'This DPoP proof was used before: make a new proof (a new jti) for every request.',
  certificate_not_registered: 'The client certificate is not registered for your account: register it, or use the registered one.',
  subject_mismatch: 'The client certificate names another subject than the one registered: use the registered certificate.',
  certificate_binding_mismatch: 'The token is bound to another certificate than the connection\'s: call with the certificate the token was issued to.',
  jwks_unavailable: 'Your jwksUri did not answer, so your keys could not be read: make it reachable.',
  insufficient_scope: 'This operation needs a token of scope self: take one by client credentials with your key or certificate, asking scope=self.',
  validation_failed: 'The request was malformed: the answer\'s details name each field to fix.',
  parameter_missing: 'A required parameter is missing: the answer names it.',
  not_encrypted: 'partnerPassword was not encrypted: send it as a compact JWE with useAuthByCert=Y.',
  replay_state_lost: 'The gateway restarted its replay protection: encrypt or sign afresh and repeat the call.',
};

/**
 * The words for a refusal's reason (the audit entry's `reason`); for a reason without its own words, what its
 * status says.
 *
 * @example
 * ```ts
 * explainReason('ip_not_allowed', 403); // 'The call came from an address outside your IP allowlist: …'
 * ```
 */
export function explainReason(reason: string | null, status: number | null): string {
  const known = reason === null ? undefined : EXPLANATIONS[reason];
  if (known) return known;
  if (reason !== null && reason.startsWith('dpop_')) return 'The DPoP proof was refused: make a fresh proof for this method and URL, signed by the token\'s key, with a new jti.';
  if (status === 401) return 'The credentials were refused: check the login, the password or key, and the token.';
  if (status === 403) return 'The call is not allowed for your account: contact the provider.';
  if (status === 429) return 'Too many calls or failures: wait (Retry-After) and repeat.';
  if (status !== null && status >= 500) return 'The gateway could not answer: repeat the call later; quote the request id if it persists.';
  return 'The request was refused: the answer\'s description_status says why.';
}
