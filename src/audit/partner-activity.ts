import { MAX_ACTIVITY_LOGINS, type ActivityResponse } from '@partner-gateway/contract/admin-partners';
import { errors } from '../errors.js';
import type { AuditRepository } from './audit-repository.js';
import type { AuditWriter } from './audit-writer.js';

/** One partner's line of the activity answer (the contract's shape). */
export type PartnerActivity = ActivityResponse['partners'][number];

/**
 * The last successful partner API call (login, refresh, logout or banks) of each of a page of partners, from
 * the audit trail, in one query: what the console's partner list shows. `logins` is the comma-separated list
 * of the query string; repeated logins are answered once. Entries still queued are written first.
 *
 * @example
 * ```ts
 * const partners = await partnerActivity(gateway.audit, gateway.auditLog, 'acme,globex');
 * // [{ login: 'acme', lastSuccessfulCall: { id: '42', at: '2026-01-01T00:00:00.000Z', action: 'banks' } }, { login: 'globex', lastSuccessfulCall: null }]
 * ```
 */
export async function partnerActivity(writer: AuditWriter, repository: AuditRepository, logins: string): Promise<PartnerActivity[]> {
  const unique = [...new Set(logins.split(','))];
  if (unique.length > MAX_ACTIVITY_LOGINS) {
    throw errors.validationFailed([{ field: 'logins', message: `must name at most ${MAX_ACTIVITY_LOGINS} partners` }]);
  }
  // Entries counted over a window (failed sign-on callbacks, a follow's searches) show once their window ends.
  await writer.flush({ held: false });
  const last = await repository.lastCalls(unique);
  return unique.map((login) => {
    const call = last.get(login);
    return { login, lastSuccessfulCall: call ? { id: call.id, at: call.at.toISOString(), action: call.action } : null };
  });
}
