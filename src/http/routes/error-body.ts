import { ErrorBody } from '@partner-gateway/contract/error-body';
import { Type, type TSchema } from 'typebox';
import { errors, texts } from '../../errors.js';

/** The headers clients act on, documented on the responses that carry them. */
const HEADERS_BY_STATUS: Record<string, Record<string, TSchema>> = {
  401: {
    'WWW-Authenticate': Type.String({ description: 'On a refused bearer token: `Bearer error="invalid_token"` (RFC 6750); log in again' }),
  },
  405: { Allow: Type.String({ description: 'The methods this path serves, e.g. `POST`' }) },
  429: { 'Retry-After': Type.Integer({ description: 'Seconds to wait before trying again' }) },
  503: { 'Retry-After': Type.Integer({ description: 'Seconds to wait before trying again' }) },
};

/** The headers that keep a token response out of every cache (set by `noStore`, in the request-context plugin). */
export const NO_STORE_HEADERS = {
  'Cache-Control': Type.String({ description: '`no-store`: the answer carries tokens' }),
  Pragma: Type.String({ description: '`no-cache`, for HTTP/1.0 caches' }),
};

/**
 * Response schemas for a route's error statuses, each documented with the exact description_status texts
 * it can carry and the headers clients act on: one source for serialization and for the OpenAPI document.
 */
export function errorResponses(byStatus: Record<number, readonly string[]>): Record<string, TSchema> {
  const responses: Record<string, TSchema> = {};
  for (const [status, descriptions] of Object.entries(byStatus)) {
    const headers = HEADERS_BY_STATUS[status];
    responses[status] = {
      ...ErrorBody,
      description: descriptions.map((text) => `\`${text}\``).join(' or '),
      examples: descriptions.map((text) => ({ description_status: text })),
      ...(headers ? { headers } : {}),
    };
  }
  return responses;
}


/**
 * The 503s any audited partner call can get: hashing or the audit trail backed up (busy, with Retry-After), or
 * the instance shutting down (retry at once, usually on another instance).
 */
export const UNAVAILABLE_TEXTS = [errors.busy().description, errors.shuttingDown().description] as const;

/**
 * The error responses of an audited partner API call: its own statuses and texts, plus the 500 and the
 * 503s every such call can answer, and the 4xx/5xx ranges that serialize anything else in the same shape.
 */
export function partnerCallErrors(byStatus: Record<number, readonly string[]>): Record<string, TSchema> {
  return { ...errorResponses({ ...byStatus, 500: [texts.internal], 503: UNAVAILABLE_TEXTS }), '4xx': ErrorBody, '5xx': ErrorBody };
}
