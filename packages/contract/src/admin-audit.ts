import { Type, type Static } from 'typebox';
import { ActorRef } from './admin-approvals.js';
import { BOUNDED_DATE_TIME_PATTERN, REQUEST_ID_PATTERN } from './patterns.js';

/** The admin API's audit trail shapes. */

/** The most entries one page of the audit trail holds (`limit`, the schema's pattern and the search's check). */
export const AUDIT_PAGE_MAX = 1000;
/** `limit` as the query string carries it: a decimal from 1 to AUDIT_PAGE_MAX (1000), no leading zero. */
export const AUDIT_LIMIT_PATTERN = '^([1-9][0-9]{0,2}|1000)$';

/** A searchable time bound: `format: date-time` within the years the audit trail can hold (BOUNDED_DATE_TIME_PATTERN). */
const TimeBound = (description: string) => Type.String({ format: 'date-time', pattern: BOUNDED_DATE_TIME_PATTERN, description: `${description}; from 0001-01-01 to 9999-12-31 in UTC, no leap second` });

/** GET /admin/v1/audit query: filters, and a page newest first (`cursor`) or following oldest first (`after`). */
export const AuditQuery = Type.Object(
  {
    partner: Type.Optional(Type.String({ maxLength: 256 })),
    outcome: Type.Optional(Type.Union([Type.Literal('success'), Type.Literal('failure')])),
    reason: Type.Optional(Type.String({ maxLength: 64 })),
    action: Type.Optional(Type.String({ maxLength: 64 })),
    operator: Type.Optional(Type.String({ maxLength: 64, description: 'Entries made by this operator (its id, or `bootstrap`), or approved by it' })),
    requestId: Type.Optional(
      Type.String({
        pattern: REQUEST_ID_PATTERN,
        description: "Entries of the request with this id (the `X-Request-Id` of its answer): its own, or an aggregated entry whose first or last call it was",
      }),
    ),
    from: Type.Optional(TimeBound('Inclusive lower bound of the time')),
    to: Type.Optional(TimeBound('Exclusive upper bound of the time')),
    cursor: Type.Optional(Type.String({ pattern: '^[0-9]{1,19}$', description: 'nextCursor of the previous page (older entries)' })),
    after: Type.Optional(Type.String({ pattern: '^[0-9]{1,19}$', description: 'Entries newer than this id, oldest first (for following)' })),
    limit: Type.Optional(Type.String({ pattern: AUDIT_LIMIT_PATTERN, description: `1 to ${AUDIT_PAGE_MAX}, default 100` })),
  },
  { title: 'AuditQuery', additionalProperties: false },
);
export type AuditQuery = Static<typeof AuditQuery>;

/** One line of the audit trail. Never carries a password, a JWE, a token or a hash. */
export const AuditEntryView = Type.Object({
  id: Type.String(),
  at: Type.String({ format: 'date-time' }),
  action: Type.String({ description: 'A partner call (login, refresh, logout, banks) or an admin change (partner.update, ...)' }),
  outcome: Type.Union([Type.Literal('success'), Type.Literal('failure')]),
  status: Type.Union([Type.Integer(), Type.Null()]),
  partner: Type.Union([Type.String(), Type.Null()]),
  clientAddress: Type.Union([Type.String(), Type.Null()]),
  reason: Type.Union([Type.String(), Type.Null()]),
  requestId: Type.Union([Type.String(), Type.Null()], { description: "The request id; for an aggregated entry, the first call's" }),
  details: Type.Union([Type.Unsafe<Record<string, unknown>>(Type.Object({}, { additionalProperties: true })), Type.Null()]),
  count: Type.Integer({ minimum: 1, description: 'Calls the entry stands for: 1, or more for successful bearer banks calls of one token within one second' }),
  lastRequestId: Type.Union([Type.String(), Type.Null()], { description: "For an aggregated entry, the last call's request id" }),
  operator: Type.Union([ActorRef, Type.Null()], { description: 'Who made an admin change (for an approved proposal: who proposed it); null for partner calls' }),
  approver: Type.Union([ActorRef, Type.Null()], { description: 'For a change made by approving a proposal: who approved it' }),
}, { title: 'AuditEntryView' });
export type AuditEntryView = Static<typeof AuditEntryView>;

/** How many entries match a search: exact up to `AUDIT_COUNT_LIMIT`, beyond it "more than" (`capped`). */
export const AuditTotal = Type.Object({
  count: Type.Integer({ minimum: 0 }),
  capped: Type.Boolean({ description: 'True when more than `count` entries match (the count stops there)' }),
}, { title: 'AuditTotal' });
export type AuditTotal = Static<typeof AuditTotal>;

/**
 * Entries counted for a search's total at most; beyond, the total says "more than". The count runs beside every
 * search: at 10 000 a filter matching many of 1 M entries took 25-56 ms a search on the embedded database, at
 * 1 000 6-10 ms (a page of 100 takes 3-8 ms).
 */
export const AUDIT_COUNT_LIMIT = 1_000;

export const AuditPage = Type.Object({ entries: Type.Array(AuditEntryView), nextCursor: Type.Union([Type.String(), Type.Null()]), total: AuditTotal }, { title: 'AuditPage' });
export type AuditPage = Static<typeof AuditPage>;

/** GET /admin/v1/audit/export query: every entry from `from` (inclusive) to `to` (exclusive), oldest first. */
export const AuditExportQuery = Type.Object(
  {
    from: TimeBound('Inclusive lower bound of the time'),
    to: TimeBound('Exclusive upper bound of the time; later than from'),
    format: Type.Optional(Type.Union([Type.Literal('jsonl'), Type.Literal('csv')], { description: 'jsonl (one AuditEntryView per line, the default) or csv' })),
  },
  { title: 'AuditExportQuery', additionalProperties: false },
);
export type AuditExportQuery = Static<typeof AuditExportQuery>;

/** The columns of the CSV export, in order (details as its JSON text; a chained token's operators space-separated, root first). */
export const AUDIT_CSV_COLUMNS = [
  'id',
  'at',
  'action',
  'outcome',
  'status',
  'partner',
  'clientAddress',
  'reason',
  'requestId',
  'count',
  'lastRequestId',
  'operatorId',
  'operatorName',
  'operatorCredential',
  'approverId',
  'approverName',
  'operatorIssuedThrough',
  'approverIssuedThrough',
  'details',
] as const;
