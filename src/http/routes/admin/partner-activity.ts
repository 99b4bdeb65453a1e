import { ActivityQuery, ActivityResponse, MAX_ACTIVITY_LOGINS as MAX_LOGINS } from '@partner-gateway/contract/admin-partners';
import { PARTNER_CALL_ACTIONS } from '@partner-gateway/contract/audit-names';
import { ErrorBody } from '@partner-gateway/contract/error-body';
import { ADMIN_PARTNER_ACTIVITY_PATH } from '@partner-gateway/contract/paths';
import type { FastifyInstance } from 'fastify';
import { errors } from '../../../errors.js';
import type { Gateway } from '../../../gateway.js';

/**
 * The last successful partner API call (login, refresh, logout or banks) of each of a page of partners,
 * from the audit trail: what the console's partner list shows in one request instead of one per partner.
 */
export async function adminPartnerActivityRoutes(app: FastifyInstance, { gateway }: { gateway: Gateway }): Promise<void> {
  app.get(
    ADMIN_PARTNER_ACTIVITY_PATH,
    { schema: { operationId: 'getPartnerActivity', tags: ['Partners'], summary: 'The last successful partner API call of each partner', querystring: ActivityQuery, response: { 200: ActivityResponse, '4xx': ErrorBody, '5xx': ErrorBody } } },
    async (request) => {
      const logins = [...new Set((request.query as ActivityQuery).logins.split(','))];
      if (logins.length > MAX_LOGINS) throw errors.validationFailed([{ field: 'logins', message: `must name at most ${MAX_LOGINS} partners` }]);
      // Entries still queued are written first, so that a call is visible as soon as its response is.
      await gateway.admin.audit.flush();
      const partners = await Promise.all(
        logins.map(async (login) => {
          const latest = await Promise.all(
            PARTNER_CALL_ACTIONS.map((action) => gateway.admin.audit.query({ partner: login, outcome: 'success', action, limit: 1 })),
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
