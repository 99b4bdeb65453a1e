import { checkIpAllowed } from '../auth/steps/check-ip-allowed.js';
import { checkPartnerActive } from '../auth/steps/check-partner-active.js';
import { authenticateClient, type AuthenticatedClient, type ClientAuthenticationDependencies } from '../oauth/authenticate-client.js';
import { readClientCredentials, type ClientAuthMethodName, type ClientAuthenticationForm } from '../oauth/read-client-credentials.js';

/** What an OAuth request carries besides its form: the headers read and the client's address. */
export interface OAuthRequestContext {
  authorization: string | undefined;
  dpop: string | string[] | undefined;
  clientAddress: string;
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
export async function authorizeOAuthClient(form: ClientAuthenticationForm, context: OAuthRequestContext, deps: ClientAuthenticationDependencies): Promise<AuthenticatedClient> {
  const credentials = readClientCredentials(form, context.authorization);
  context.onMethod?.(credentials.method);
  const client = await authenticateClient(credentials, context.clientAddress, deps);
  context.onClient?.(client.partner.login, client.method);
  checkPartnerActive(client.partner);
  checkIpAllowed(client.partner, context.clientAddress);
  if (client.method !== 'private_key_jwt') await deps.guard.succeeded(context.clientAddress, client.partner);
  return client;
}
