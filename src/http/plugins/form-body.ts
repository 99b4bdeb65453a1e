import { CLIENT_ASSERTION_TYPE_JWT_BEARER } from '@partner-gateway/contract/oauth';
import type { FastifyInstance, FastifySchemaValidationError } from 'fastify';
import { errors } from '../../errors.js';

/** 16 KiB: two maximal assertions or proofs and the rest of a form, far below the JSON routes' limit. */
export const FORM_BODY_LIMIT = 16 * 1024;

/**
 * `application/x-www-form-urlencoded` bodies for the OAuth endpoints, in the scope that registers it (the
 * OAuth routes only: the rest of the public API takes JSON alone). The body becomes an object of strings
 * (URLSearchParams: `+` is a space, UTF-8 percent-escapes; a parameter without a value is omitted, RFC 6749
 * section 3.1); a parameter sent twice is `invalid_request`
 * (RFC 6749 section 3.2), and so is any other media type. Prototype keys are plain data on a null-prototype
 * object, never assigned to a prototype.
 */
export function formBody(app: FastifyInstance): void {
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string', bodyLimit: FORM_BODY_LIMIT }, (_request, body, done) => {
    const form: Record<string, string> = Object.create(null) as Record<string, string>;
    const seen = new Set<string>();
    for (const [name, value] of new URLSearchParams(body as string)) {
      if (Object.hasOwn(form, name) || seen.has(name)) return done(errors.invalidRequest(`parameter ${printable(name)} is repeated`), undefined);
      seen.add(name);
      // RFC 6749 section 3.1: a parameter sent without a value is treated as omitted.
      if (value !== '') form[name] = value;
    }
    return done(null, form);
  });
  app.addContentTypeParser('*', (_request, _payload, done) => done(errors.invalidRequest('the body must be application/x-www-form-urlencoded'), undefined));
}

/**
 * A schema violation of a form, answered as the operations answer it (the schema states their rules, so that the
 * document holds them): a missing parameter first, then a grant type other than GRANT_TYPES
 * (`unsupported_grant_type`), two client authentications, a wrong client_assertion_type, half of one; otherwise
 * `invalid_request` naming the first offending parameter (never its value).
 */
export function formErrorFormatter(issues: FastifySchemaValidationError[]): Error {
  const find = (test: (issue: FastifySchemaValidationError) => boolean) => issues.find(test);
  const missing = find((issue) => issue.keyword === 'required' && issue.schemaPath === '#/required');
  if (missing) return errors.invalidRequest(`${printable(String(missing.params.missingProperty))} is missing`);
  if (find((issue) => issue.instancePath === '/grant_type')) return errors.unsupportedGrantType();
  if (find((issue) => issue.keyword === 'not')) return errors.invalidRequest('more than one client authentication method', 'multiple_client_authentications');
  if (find((issue) => issue.instancePath === '/client_assertion_type')) {
    return errors.invalidRequest(`client_assertion_type must be ${CLIENT_ASSERTION_TYPE_JWT_BEARER}`, 'malformed_client_assertion');
  }
  const half = find((issue) => issue.keyword === 'required');
  if (half) {
    const name = String(half.params.missingProperty);
    return errors.invalidRequest(`${printable(name)} is missing`, name === 'client_id' ? 'no_client_authentication' : 'malformed_client_assertion');
  }
  const name = issues[0]?.instancePath.replace(/^\//, '') ?? '';
  return errors.invalidRequest(name ? `${printable(name)} is invalid` : 'the body must be application/x-www-form-urlencoded');
}

/** A parameter name as it may appear in an error: printable ASCII, at most 40 characters. */
function printable(name: string): string {
  return name.replace(/[^\x21-\x7e]/g, '?').slice(0, 40);
}
