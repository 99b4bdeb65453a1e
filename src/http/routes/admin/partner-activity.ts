import type { FastifyInstance } from 'fastify';
import { Type, type Static } from 'typebox';
import { MAX_ACTIVITY_LOGINS, partnerActivity } from '../../../audit/partner-activity.js';
import type { Gateway } from '../../../gateway.js';
import { ErrorBody } from '../error-body.js';


const ActivityQuery = Type.Object(
  {
    logins: Type.String({
      pattern: '^[A-Za-z0-9._@-]+(,[A-Za-z0-9._@-]+)*$',
      maxLength: MAX_ACTIVITY_LOGINS * 65,
      description: `Comma-separated partner logins, at most ${MAX_ACTIVITY_LOGINS}`,
    }),
  },
  { additionalProperties: false },
);

const LastCall = Type.Object({ id: Type.String(), at: Type.String({ format: 'date-time' }), action: Type.String() });

const ActivityResponse = Type.Object({
  partners: Type.Array(Type.Object({ login: Type.String(), lastSuccessfulCall: Type.Union([LastCall, Type.Null()]) })),
});

/**
 * The last successful partner API call (login, refresh, logout or banks) of each of a page of partners,
 * from the audit trail: what the console's partner list shows in one request instead of one per partner.
 */
export async function adminPartnerActivityRoutes(app: FastifyInstance, { gateway }: { gateway: Gateway }): Promise<void> {
  app.get(
    '/admin/v1/partner-activity',
    { schema: { querystring: ActivityQuery, response: { 200: ActivityResponse, '4xx': ErrorBody, '5xx': ErrorBody } } },
    async (request) => ({ partners: await partnerActivity(gateway.audit, gateway.auditLog, (request.query as Static<typeof ActivityQuery>).logins) }),
  );
}
