import { checkIpAllowed } from './check-ip-allowed.js';
import { checkPartnerActive } from './check-partner-active.js';
import { authenticateClient, type AuthenticatedClient, type ClientAuthenticationDependencies } from '../credentials/authenticate-client.js';
import { readClientCredentials, type ClientAuthMethodName, type ClientAuthenticationForm } from '../credentials/read-client-credentials.js';
import type { ClientCertificate } from '../../mtls/client-certificate.js';
import { authenticateWithCertificate, certificateClientId } from '../credentials/authenticate-with-certificate.js';

/** What an OAuth request carries besides its form: the headers read and the client's address. */
export interface OAuthRequestContext {
  authorization: string | undefined;
  dpop: string | string[] | undefined;
  clientAddress: string;
  /** The connection's client certificate (HTTPS listener, or the trusted proxy's header): RFC 8705 client authentication and binding. */
  certificate?: ClientCertificate | undefined;
  /** Learns the authenticated partner and how it authenticated (for the audit trail), even if a later check refuses it. */
  onClient?(login: string, method: ClientAuthMethodName): void;
  /** Learns the method the client tried, as soon as it is read (for the metrics), even if it fails. */
  onMethod?(method: ClientAuthMethodName): void;
}

/**
 * The client checks every OAuth endpoint runs, in this order: one authentication method read (400/401), the
 * client authenticated (401 `invalid_client`, 429), then, as login does once the secret is proven, 403 for a
 * blocked partner or a foreign address. A fully successful password authentication forgets the address's
 * failures for this partner, as a login does.
 */
export async function authorizeOAuthClient(
  form: ClientAuthenticationForm,
  context: OAuthRequestContext,
  deps: ClientAuthenticationDependencies,
): Promise<AuthenticatedClient> {
  const client = await authenticateAnyClient(form, context, deps);
  context.onClient?.(client.partner.login, client.method);
  checkPartnerActive(client.partner);
  checkIpAllowed(client.partner, context.clientAddress);
  if (client.method === 'client_secret_basic' || client.method === 'client_secret_post') await deps.guard.succeeded(context.clientAddress, client.partner);
  return client;
}

/** `client_id` alone is mutual TLS (RFC 8705 section 2); anything else is read as one of the other methods. */
async function authenticateAnyClient(form: ClientAuthenticationForm, context: OAuthRequestContext, deps: ClientAuthenticationDependencies): Promise<AuthenticatedClient> {
  const login = certificateClientId(form, context.authorization);
  if (login !== undefined) {
    // Which of the two methods it is is known once the certificate is checked; until then (for a refusal's metrics) a
    // self-issued certificate counts as self_signed_tls_client_auth, any other as tls_client_auth, none as none.
    const certificate = context.certificate;
    if (certificate) context.onMethod?.(certificate.subjectDn === certificate.issuerDn ? 'self_signed_tls_client_auth' : 'tls_client_auth');
    const client = await authenticateWithCertificate(login, certificate, context.clientAddress, deps);
    context.onMethod?.(client.method);
    return client;
  }
  const credentials = readClientCredentials(form, context.authorization);
  context.onMethod?.(credentials.method);
  return authenticateClient(credentials, context.clientAddress, deps);
}
