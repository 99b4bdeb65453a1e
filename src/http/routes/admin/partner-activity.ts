import type { FastifyInstance } from 'fastify';
import { Type, type Static } from 'typebox';
import { errors } from '../../../errors.js';
import type { Gateway } from '../../../gateway.js';
import { ErrorBody } from '../error-body.js';

/** The partner API's own calls, as the audit trail names them (admin changes are not a partner's calls). */
export const PARTNER_CALL_ACTIONS = ['login', 'refresh', 'logout', 'banks'] as const;

const MAX_LOGINS = 100;

const ActivityQuery = Type.Object(
  {
    logins: Type.String({
      pattern: '^[A-Za-z0-9._@-]+(,[A-Za-z0-9._@-]+)*$',
      maxLength: MAX_LOGINS * 65,
      description: `Comma-separated partner logins, at most ${MAX_LOGINS}`,
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
    async (request) => {
      const logins = [...new Set((request.query as Static<typeof ActivityQuery>).logins.split(','))];
      if (logins.length > MAX_LOGINS) throw errors.validationFailed([{ field: 'logins', message: `must name at most ${MAX_LOGINS} partners` }]);
      // Entries still queued are written first, so that a call is visible as soon as its response is.
      await gateway.audit.flush();
      const partners = await Promise.all(
        logins.map(async (login) => {
          const latest = await Promise.all(
            PARTNER_CALL_ACTIONS.map((action) => gateway.auditLog.query({ partner: login, outcome: 'success', action, limit: 1 })),
          );
          const newest = latest
            .flat()
            .reduce<(typeof latest)[number][number] | undefined>((best, entry) => (best === undefined || BigInt(entry.id) > BigInt(best.id) ? entry : best), undefined);
          return { login, lastSuccessfulCall: newest ? { id: newest.id, at: new Date(newest.at).toISOString(), action: newest.action } : null };
        }),
      );
      return { partners };
    },
  );
}
