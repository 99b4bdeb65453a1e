import { SELF_HISTORY_DAYS, SELF_LOG_ACTIONS, type SelfCall, type SelfCallsQuery, type SelfCallsResponse, type SelfUsageResponse } from '@partner-gateway/contract/self-service';
import { TtlCache } from '../cache/ttl-cache.js';
import { errors } from '../errors.js';
import type { AuditRepository } from './audit-repository.js';
import type { StoredAuditEntry } from './audit-entry.js';
import type { AuditWriter } from './audit-writer.js';
import { explainReason } from './reason-explanations.js';

/**
 * A partner's own calls, read from the audit trail for the self-service API: the partner API's calls and the
 * self-service API's, of the last 30 days, under the partner's login and nothing else. An operator's change
 * concerning the partner is never among them (its action is an admin one), nor is another partner's call: the
 * login comes from the caller's token, never from the query.
 */
export interface PartnerRequestLog {
  /** A page of calls, newest first; `requestId` finds one call (an unknown id and another partner's id answer alike: no calls). */
  calls(login: string, query: SelfCallsQuery): Promise<SelfCallsResponse>;
  /** Calls per UTC day, operation and outcome over the last 30 days; computed at most once a minute per partner. */
  usage(login: string): Promise<SelfUsageResponse>;
}

const DAY_MS = 24 * 3600_000;
/** How long a partner's usage is served from memory: its query reads up to 30 days of the partner's entries. */
const USAGE_CACHE_MS = 60_000;

/**
 * @example
 * ```ts
 * const log = createPartnerRequestLog(writer, repository, Date.now);
 * const { calls } = await log.calls('acme', { requestId: '5f0c…' });
 * ```
 */
export function createPartnerRequestLog(writer: AuditWriter, repository: AuditRepository, now: () => number): PartnerRequestLog {
  const usage = new TtlCache<string, SelfUsageResponse>(USAGE_CACHE_MS, 10_000, now);
  return {
    async calls(login, query) {
      const earliest = now() - SELF_HISTORY_DAYS * DAY_MS;
      const from = query.from === undefined ? earliest : Math.max(earliest, timeOf(query.from, 'from'));
      const to = query.to === undefined ? undefined : timeOf(query.to, 'to');
      const limit = query.limit === undefined ? 50 : Number(query.limit);
      // A call answered a moment ago is findable by its request id at once. Only then: a partner paging its log
      // often must not make the shared writer write in small batches for everyone.
      if (query.requestId !== undefined) await writer.flush({ held: false });
      const entries = await repository.query({
        partner: login,
        actions: SELF_LOG_ACTIONS,
        from: new Date(from),
        ...(to !== undefined ? { to: new Date(to) } : {}),
        ...(query.requestId !== undefined ? { requestId: query.requestId } : {}),
        ...(query.outcome !== undefined ? { outcome: query.outcome } : {}),
        ...(query.before !== undefined ? { before: query.before } : {}),
        limit,
      });
      return { calls: entries.map(toSelfCall), next: entries.length === limit ? entries.at(-1)!.id : null };
    },
    async usage(login) {
      const known = usage.get(login);
      if (known) return known;
      await writer.flush({ held: false });
      const rows = await repository.usage(login, SELF_LOG_ACTIONS, new Date(now() - SELF_HISTORY_DAYS * DAY_MS));
      const answer: SelfUsageResponse = {
        days: SELF_HISTORY_DAYS,
        usage: rows.map((row) => ({ day: row.day, operation: row.action as SelfCall['operation'], outcome: row.outcome, calls: row.calls })),
      };
      usage.set(login, answer);
      return answer;
    },
  };
}

/** An audit entry as the partner's request log shows it: what the partner needs, with the refusal in words. */
export function toSelfCall(entry: StoredAuditEntry): SelfCall {
  return {
    at: entry.at.toISOString(),
    operation: entry.action as SelfCall['operation'],
    outcome: entry.outcome,
    status: entry.status,
    reason: entry.outcome === 'failure' ? entry.reason : null,
    explanation: entry.outcome === 'failure' ? explainReason(entry.reason, entry.status) : null,
    requestId: entry.requestId,
    clientAddress: entry.clientAddress,
    count: entry.count,
  };
}

function timeOf(value: string, field: string): number {
  const time = Date.parse(value);
  if (Number.isNaN(time)) throw errors.validationFailed([{ field, message: 'must be an ISO 8601 date-time' }]);
  return time;
}
