import { errors } from '../../errors.js';
import { CLIENT_ASSERTION_TYPE } from './verify-client-assertion.js';

/** The client-authentication fields of an OAuth form (RFC 6749 section 2.3, RFC 7523 section 2.2). */
export interface ClientAuthenticationForm {
  client_id?: string | undefined;
  client_secret?: string | undefined;
  client_assertion_type?: string | undefined;
  client_assertion?: string | undefined;
}

/** How the client said it authenticates, read but not yet checked. */
export type ClientCredentials =
  | { method: 'private_key_jwt'; assertion: string; clientId?: string }
  | { method: 'client_secret_basic' | 'client_secret_post'; login: string; secret: string };


/** `WWW-Authenticate` of an `invalid_client` answer to a client that used Basic (RFC 6749 section 5.2). */
export const BASIC_CHALLENGE = { 'www-authenticate': 'Basic realm="partner-gateway", charset="UTF-8"' };

/**
 * Reads exactly one client authentication from the form and the `Authorization` header: `private_key_jwt`
 * (client_assertion_type + client_assertion), `client_secret_basic` (`Authorization: Basic`, user and password
 * each form-urlencoded first, RFC 6749 section 2.3.1) or `client_secret_post` (client_id + client_secret).
 * Two at once is `invalid_request` (RFC 6749 section 2.3: a client must not use more than one); none is
 * `invalid_client`. Nothing secret is ever echoed in the error.
 *
 * @example
 * ```ts
 * readClientCredentials({ client_id: 'acme', client_secret: 's3cret' }, undefined); // { method: 'client_secret_post', ... }
 * ```
 */
export function readClientCredentials(form: ClientAuthenticationForm, authorization: string | undefined): ClientCredentials {
  const basic = authorization !== undefined ? readBasic(authorization) : undefined;
  const hasAssertion = form.client_assertion !== undefined || form.client_assertion_type !== undefined;
  const hasSecret = form.client_secret !== undefined;
  const used = [basic !== undefined, hasAssertion, hasSecret].filter(Boolean).length;
  if (used > 1) throw errors.invalidRequest('more than one client authentication method', 'multiple_client_authentications');
  if (basic) {
    if (form.client_id !== undefined && form.client_id !== basic.login) throw errors.invalidRequest('client_id does not match the Authorization header', 'multiple_client_authentications');
    return { method: 'client_secret_basic', ...basic };
  }
  if (hasAssertion) {
    if (form.client_assertion_type !== CLIENT_ASSERTION_TYPE) throw errors.invalidRequest(`client_assertion_type must be ${CLIENT_ASSERTION_TYPE}`, 'malformed_client_assertion');
    if (!form.client_assertion) throw errors.invalidRequest('client_assertion is missing', 'malformed_client_assertion');
    return { method: 'private_key_jwt', assertion: form.client_assertion, ...(form.client_id !== undefined ? { clientId: form.client_id } : {}) };
  }
  if (hasSecret) {
    if (!form.client_id) throw errors.invalidRequest('client_id is missing', 'no_client_authentication');
    return { method: 'client_secret_post', login: form.client_id, secret: form.client_secret! };
  }
  throw errors.invalidClient('no_client_authentication');
}

/** `Basic base64(urlencode(user):urlencode(password))`; anything else in the header is `invalid_client`. */
function readBasic(authorization: string): { login: string; secret: string } {
  const match = /^Basic +([A-Za-z0-9+/]+=*) *$/i.exec(authorization);
  if (!match?.[1]) throw errors.invalidClient('malformed_authorization', BASIC_CHALLENGE);
  const decoded = Buffer.from(match[1], 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon < 0) throw errors.invalidClient('malformed_authorization', BASIC_CHALLENGE);
  try {
    const login = formDecode(decoded.slice(0, colon));
    const secret = formDecode(decoded.slice(colon + 1));
    if (!login || !secret) throw new Error('empty');
    return { login, secret };
  } catch {
    throw errors.invalidClient('malformed_authorization', BASIC_CHALLENGE);
  }
}

function formDecode(value: string): string {
  return decodeURIComponent(value.replace(/\+/g, ' '));
}

/**
 * The client_id of a request that authenticates by its TLS client certificate (RFC 8705 section 2): a form with
 * `client_id` and no other client authentication (no secret, no assertion, no `Authorization` header). Undefined
 * for anything else, which the other methods read (and refuse, when it is nothing at all).
 *
 * @example
 * ```ts
 * certificateClientId({ grant_type: 'client_credentials', client_id: 'acme' }, undefined); // 'acme'
 * ```
 */
export function certificateClientId(form: ClientAuthenticationForm, authorization: string | undefined): string | undefined {
  const other = authorization !== undefined || form.client_secret !== undefined || form.client_assertion !== undefined || form.client_assertion_type !== undefined;
  return !other && form.client_id ? form.client_id : undefined;
}
