import { Type, type TSchema } from 'typebox';
import { errors } from '../../errors.js';

/** Every error response: the seed's description_status, plus the list of offending fields or rows when there is one. */
export const ErrorBody = Type.Object({
  description_status: Type.String(),
  errors: Type.Optional(
    Type.Array(
      Type.Object({
        field: Type.Optional(Type.String()),
        line: Type.Optional(Type.Integer()),
        entry: Type.Optional(Type.String()),
        message: Type.String(),
      }),
    ),
  ),
});

/**
 * Response schemas for a route's error statuses, each documented with the exact description_status texts
 * it can carry: one source for serialization and for the OpenAPI document.
 */
export function errorResponses(byStatus: Record<number, readonly string[]>): Record<string, TSchema> {
  const responses: Record<string, TSchema> = {};
  for (const [status, descriptions] of Object.entries(byStatus)) {
    responses[status] = Type.Object(ErrorBody.properties, {
      description: descriptions.map((text) => `\`${text}\``).join(' or '),
      examples: descriptions.map((text) => ({ description_status: text })),
    });
  }
  return responses;
}

/**
 * The 503s any audited partner call can get: hashing or the audit trail backed up (busy, with Retry-After), or
 * the instance shutting down (retry at once, usually on another instance).
 */
export const UNAVAILABLE_TEXTS = [errors.busy().description, errors.shuttingDown().description] as const;
