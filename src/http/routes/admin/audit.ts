import type { FastifyInstance } from 'fastify';
import { Type, type Static } from 'typebox';
import { searchAudit } from '../../../audit/audit-search.js';
import type { Gateway } from '../../../gateway.js';
import { ErrorBody } from '../error-body.js';

const AuditQuery = Type.Object(
  {
    partner: Type.Optional(Type.String({ maxLength: 256 })),
    outcome: Type.Optional(Type.Union([Type.Literal('success'), Type.Literal('failure')])),
    reason: Type.Optional(Type.String({ maxLength: 64 })),
    action: Type.Optional(Type.String({ maxLength: 64 })),
    from: Type.Optional(Type.String({ format: 'date-time', description: 'Inclusive lower bound of the time' })),
    to: Type.Optional(Type.String({ format: 'date-time', description: 'Exclusive upper bound of the time' })),
    cursor: Type.Optional(Type.String({ pattern: '^[0-9]{1,19}$', description: 'nextCursor of the previous page (older entries)' })),
    after: Type.Optional(Type.String({ pattern: '^[0-9]{1,19}$', description: 'Entries newer than this id, oldest first (for following)' })),
    limit: Type.Optional(Type.String({ pattern: '^[0-9]{1,4}$', description: '1 to 1000, default 100' })),
  },
  { additionalProperties: false },
);

const AuditEntryView = Type.Object({
  id: Type.String(),
  at: Type.String({ format: 'date-time' }),
  action: Type.String(),
  outcome: Type.String(),
  status: Type.Union([Type.Integer(), Type.Null()]),
  partner: Type.Union([Type.String(), Type.Null()]),
  clientAddress: Type.Union([Type.String(), Type.Null()]),
  reason: Type.Union([Type.String(), Type.Null()]),
  requestId: Type.Union([Type.String(), Type.Null()], { description: 'The request id; for an aggregated entry, the first call\'s' }),
  details: Type.Union([Type.Object({}, { additionalProperties: true }), Type.Null()]),
  count: Type.Integer({ minimum: 1, description: 'Calls the entry stands for: 1, or more for successful bearer banks calls of one token within one second' }),
  lastRequestId: Type.Union([Type.String(), Type.Null()], { description: 'For an aggregated entry (count > 1 possible), the last call\'s request id' }),
});

/** The audit trail, filtered and paged newest first (`cursor`), or followed oldest first (`after`). */
export async function adminAuditRoutes(app: FastifyInstance, { gateway }: { gateway: Gateway }): Promise<void> {
  app.get(
    '/admin/v1/audit',
    { schema: { querystring: AuditQuery, response: { 200: Type.Object({ entries: Type.Array(AuditEntryView), nextCursor: Type.Union([Type.String(), Type.Null()]) }), '4xx': ErrorBody, '5xx': ErrorBody } } },
    async (request) => searchAudit(gateway.audit, gateway.auditLog, request.query as Static<typeof AuditQuery>),
  );
}
