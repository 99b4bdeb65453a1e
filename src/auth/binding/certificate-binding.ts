import { errors } from '../../errors.js';
import { invalidTokenHeader, type AccessTokenClaims } from '../tokens/access-tokens.js';

/**
 * RFC 8705 section 3: a token bound to a client certificate (`cnf["x5t#S256"]`) is accepted only over a connection
 * made with that very certificate (the HTTPS listener's, or the one the trusted proxy passes on); over plain HTTP,
 * without a certificate, or with another one, it is the seed's 401 with `WWW-Authenticate: Bearer
 * error="invalid_token"`, reason `certificate_binding_mismatch`. An unbound token costs one property check.
 * (Which certificate a new token is bound to is decided where the client proved it holds one:
 * `authenticateWithCertificate` returns its thumbprint.)
 *
 * @example
 * ```ts
 * checkCertificateBinding(claims, context.certificate?.thumbprint);
 * ```
 */
export function checkCertificateBinding(claims: Pick<AccessTokenClaims, 'x5t'>, presentedThumbprint: string | undefined): void {
  if (claims.x5t !== undefined && claims.x5t !== presentedThumbprint) throw errors.unauthorized('certificate_binding_mismatch', invalidTokenHeader);
}
