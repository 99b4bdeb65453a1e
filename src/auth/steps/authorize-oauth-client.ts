import type { RequestContext } from '../../request-context.js';
import type { AuthDependencies, AuthenticatedClient } from '../auth-dependencies.js';
import { authenticateWithAssertion } from '../credentials/authenticate-with-assertion.js';
import { authenticateWithCertificate } from '../credentials/authenticate-with-certificate.js';
import { authenticateWithClientSecret } from '../credentials/authenticate-with-client-secret.js';
import { certificateClientId, readClientCredentials, type ClientAuthenticationForm } from '../credentials/read-client-credentials.js';
import { checkPartnerAccess } from './check-partner-access.js';

/**
 * The client checks every OAuth endpoint runs, in this order: one authentication method read (400/401), the
 * client authenticated by it (401 `invalid_client`, 429), then, as login does once the secret is proven, 403 for
 * a blocked partner or a foreign address. A fully successful password authentication forgets the address's
 * failures for this partner, as a login does. The context learns the method as soon as it is read (the token
 * metrics' label) and, once the client is proven, its login and method (the audit entry).
 *
 * @example
 * ```ts
 * const { partner, method } = await authorizeOAuthClient(form, context, deps);
 * ```
 */
export async function authorizeOAuthClient(
  form: ClientAuthenticationForm,
  context: RequestContext,
  deps: Pick<AuthDependencies, 'partners' | 'guard' | 'passwords' | 'replay' | 'remoteJwks' | 'assertionAudiences' | 'trustedCas' | 'now'>,
): Promise<AuthenticatedClient> {
  const client = await authenticateAnyClient(form, context, deps);
  context.audit.partner = client.partner.login;
  // Whether a token was bound is the token operation's to add, once it is issued.
  context.audit.details = { method: client.method };
  checkPartnerAccess(client.partner, context.clientAddress);
  if (client.method === 'client_secret_basic' || client.method === 'client_secret_post') await deps.guard.succeeded(context.clientAddress, client.partner);
  return client;
}

/** `client_id` alone is mutual TLS (RFC 8705 section 2); anything else is read as one of the other methods. */
async function authenticateAnyClient(
  form: ClientAuthenticationForm,
  context: RequestContext,
  deps: Parameters<typeof authorizeOAuthClient>[2],
): Promise<AuthenticatedClient> {
  const login = certificateClientId(form, context.authorization);
  if (login !== undefined) {
    // Which of the two methods it is is known once the certificate is checked; until then (for a refusal's metrics) a
    // self-issued certificate counts as self_signed_tls_client_auth, any other as tls_client_auth, none as none.
    const certificate = context.certificate;
    if (certificate) context.clientMethod = certificate.subjectDn === certificate.issuerDn ? 'self_signed_tls_client_auth' : 'tls_client_auth';
    const client = await authenticateWithCertificate(login, certificate, context.clientAddress, deps);
    context.clientMethod = client.method;
    return client;
  }
  const credentials = readClientCredentials(form, context.authorization);
  context.clientMethod = credentials.method;
  if (credentials.method === 'private_key_jwt') return authenticateWithAssertion(credentials.assertion, credentials.clientId, context.clientAddress, deps);
  return authenticateWithClientSecret(credentials, context.clientAddress, deps);
}
