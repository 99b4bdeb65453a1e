import { errors, texts } from '../errors.js';

/** What the introduction depends on: the configured path segment and JWE time window. */
export interface DescriptionSettings {
  providerSegment: string;
  /** JWE_MAX_AGE: seconds an `iat` may lie in the past. */
  jweMaxAge: number;
  /** JWE_MAX_FUTURE: seconds an `iat` may lie in the future. */
  jweMaxFuture: number;
}

/**
 * When a partnerPassword JWE is accepted, in the words the partner guide (docs/integration.md) uses too; a
 * test holds the guide to the default window. The window is on the `iat` as seen from the gateway's clock.
 *
 * @example jweWindowText(120, 30) // "while its `iat` lies between 120 seconds in the past and 30 seconds in the future"
 */
export function jweWindowText(maxAgeSeconds: number, maxFutureSeconds: number): string {
  return `while its \`iat\` lies between ${maxAgeSeconds} seconds in the past and ${maxFutureSeconds} seconds in the future`;
}

/**
 * The introduction of the OpenAPI document and of the /docs page: how to authenticate, the JWE scheme step
 * by step, and every error text. Built from the error catalogue and the configuration, so the documented
 * texts and time window are the served ones.
 */
export function openApiDescription({ providerSegment, jweMaxAge, jweMaxFuture }: DescriptionSettings): string {
  const rows: Array<[number, string, string]> = [
    [401, texts.unauthorized, 'Check the login and password (or log in again for a fresh token; a bearer 401 carries `WWW-Authenticate: Bearer error="invalid_token"`). For a JWE: a fresh `iat` and `jti` every call, the current `kid`.'],
    [403, texts.blocked, 'Your access is suspended: contact your account manager. Retrying will not help.'],
    [403, texts.ipNotAllowed, 'Call from an address on your allowlist, or ask your account manager to add this one.'],
    [403, texts.rewardTypeUnavailable, 'Your contract does not include SBP payouts: contact your account manager.'],
    [422, errors.parameterMissing('<name>').description, 'Send the parameter (an empty value counts as missing).'],
    [422, texts.notEncrypted, 'Send partnerPassword as a compact JWE (below) with useAuthByCert=Y.'],
    [422, errors.parameterInvalid('<name>').description, 'Fix the value (useAuthByCert must be Y; give each parameter once).'],
    [400, errors.malformedBody().description, 'Send a valid JSON body.'],
    [413, errors.payloadTooLarge().description, 'Login bodies are limited to 64 KiB.'],
    [415, errors.unsupportedMediaType('application/json').description, 'Send Content-Type: application/json to login.'],
    [429, errors.throttled(60).description, 'Too many failed authentications: wait Retry-After seconds and fix your credentials.'],
    [500, texts.internal, 'Retry later with exponential backoff.'],
  ];
  return [
    'The partner API of the SBP payout gateway: log in for a bearer token, then fetch the banks that can receive business-to-consumer SBP transfers.',
    '',
    '## Authentication',
    '',
    '1. `POST /api/v1/login/` with `{"login", "password"}` returns `access_token` (a JWT, RFC 9068, ES256), `token_type: "bearer"`, `expires_in` seconds and a single-use `refresh_token`. Send `Authorization: Bearer <access_token>`; before it expires, renew it at `POST /api/v1/token/refresh/` (never reuse a refresh token: that revokes the login) or log in again.',
    `2. Or call \`POST /partner/${providerSegment}/sbp/banks/\` with \`partnerName\`, \`partnerPassword\` and \`useAuthByCert=Y\` in the query string, partnerPassword being encrypted:`,
    '',
    '## Encrypting partnerPassword (JWE)',
    '',
    '1. Fetch `GET /.well-known/jwks.json` and take the key with `"use": "enc"` and `"alg": "RSA-OAEP-256"` (cache it; fetch again when a call fails with 401 after a key change).',
    '2. Build the JWE protected header: `{"alg": "RSA-OAEP-256", "enc": "A256GCM", "kid": "<the key\'s kid>", "iat": <now, integer seconds>, "jti": "<a fresh random id, e.g. a UUID>"}`. No `zip`, no `crit`.',
    '3. Encrypt the API password (UTF-8 bytes) with that header and key into the compact serialization: five base64url parts joined by dots.',
    `4. Put it in the query string as \`partnerPassword\` (it is URL-safe). It is accepted once, and only ${jweWindowText(jweMaxAge, jweMaxFuture)} (keep your clock in sync): build a new one for every call.`,
    '',
    '## Errors',
    '',
    'Every error is JSON `{"description_status": "..."}`. Every answer carries `X-Request-Id`: yours, if you sent one of 1 to 64 characters `[A-Za-z0-9._-]`, else one the gateway made. Quote it to support: it finds the call in the logs and the audit trail.',
    '',
    '| Status | description_status | What to do |',
    '|---|---|---|',
    ...rows.map(([status, text, action]) => `| ${status} | \`${text}\` | ${action} |`),
  ].join('\n');
}
