import { Type, type Static } from 'typebox';
import { ActorRef } from './admin-approvals.js';
import { BankListChange } from './admin-bank-versions.js';

/**
 * The scheduled registry sync (`BANKS_SYNC_URL`): its runs, the answer to running it now, and a run held by the
 * removal guard until an operator approves or rejects it.
 */

const Nullable = <T extends Parameters<typeof Type.Union>[0][number]>(schema: T) => Type.Union([schema, Type.Null()]);

/**
 * What a run did: `applied` (a new version), `held` (the removal guard stopped it), `unchanged`, or `failed`
 * (nothing changed); `started` while it runs. A started run whose instance stopped before it ended (a crash, a
 * restart) is marked `failed` with no `finishedAt` by the next check, and the schedule backs off after it.
 */
export const BankSyncOutcome = Type.Union([Type.Literal('started'), Type.Literal('applied'), Type.Literal('held'), Type.Literal('unchanged'), Type.Literal('failed')], { title: 'BankSyncOutcome' });
export type BankSyncOutcome = Static<typeof BankSyncOutcome>;

/** A held run's state: waiting, approved (applied as a version), rejected, superseded by a later run, or refused because the list changed since. */
export const BankSyncHoldStatus = Type.Union([
  Type.Literal('pending'),
  Type.Literal('approved'),
  Type.Literal('rejected'),
  Type.Literal('superseded'),
  Type.Literal('conflict'),
], { title: 'BankSyncHoldStatus' });
export type BankSyncHoldStatus = Static<typeof BankSyncHoldStatus>;

/** Why a run was held, and what became of it. */
export const BankSyncHold = Type.Object({
  /** The guard's words: `would remove 30 banks (more than BANKS_SYNC_MAX_REMOVALS, 10)`. */
  reason: Type.String(),
  status: BankSyncHoldStatus,
  decidedBy: Nullable(ActorRef),
  decidedAt: Nullable(Type.String({ format: 'date-time' })),
  /** The approver's comment or the rejecter's reason. */
  comment: Nullable(Type.String()),
}, { title: 'BankSyncHold' });
export type BankSyncHold = Static<typeof BankSyncHold>;

/**
 * One sync run as `GET /admin/v1/banks/sync` lists it.
 *
 * @example
 * ```json
 * { "id": 7, "trigger": "schedule", "outcome": "applied", "version": 12, "baseVersion": 11, "added": 1, "removed": 1, "changed": 1, ... }
 * ```
 */
export const BankSyncRun = Type.Object({
  id: Type.Integer(),
  startedAt: Type.String({ format: 'date-time' }),
  /** Null while it runs, and for a run that never finished (its instance stopped). */
  finishedAt: Nullable(Type.String({ format: 'date-time' })),
  /** `schedule` (every BANKS_SYNC_INTERVAL) or `manual` (an operator ran it now). */
  trigger: Type.Union([Type.Literal('schedule'), Type.Literal('manual')]),
  /** Who ran it: the operator, or the gateway itself for a scheduled run. */
  author: ActorRef,
  /** The source's scheme, host and path (never its query string or credentials). */
  source: Type.String(),
  outcome: BankSyncOutcome,
  /** Why it failed, in words (`the source is not an ED807 directory: ...`); null unless failed. */
  error: Nullable(Type.String()),
  /** SBP head offices the directory lists; null when it could not be read. */
  received: Nullable(Type.Integer()),
  /** The list's version the run was computed on. */
  baseVersion: Nullable(Type.Integer()),
  /** The version it made (applied, or a held run once approved). */
  version: Nullable(Type.Integer()),
  added: Type.Integer(),
  changed: Type.Integer(),
  removed: Type.Integer(),
  hold: Nullable(BankSyncHold),
}, { title: 'BankSyncRun' });
export type BankSyncRun = Static<typeof BankSyncRun>;

/** What the audit trail keeps of a sync run, scheduled or run by an operator: what it did, never its source's query string. */
export function auditableSyncRun(run: BankSyncRun): Record<string, unknown> {
  return {
    run: run.id,
    trigger: run.trigger,
    source: run.source,
    outcome: run.outcome,
    ...(run.error !== null ? { error: run.error } : {}),
    ...(run.version !== null ? { version: run.version } : {}),
    ...(run.baseVersion !== null ? { baseVersion: run.baseVersion } : {}),
    added: run.added,
    changed: run.changed,
    removed: run.removed,
    ...(run.hold ? { held: run.hold.reason, holdStatus: run.hold.status } : {}),
  };
}

/** A run with every change it made (or, held or previewed, would make), by bank and field. */
export const BankSyncRunView = Type.Object({ ...BankSyncRun.properties, changes: Type.Array(BankListChange) }, { title: 'BankSyncRunView' });
export type BankSyncRunView = Static<typeof BankSyncRunView>;

/** POST /admin/v1/banks/sync/preview: what a sync would do now; nothing changed or recorded but the audit entry. */
export const BankSyncPreview = Type.Object({
  source: Type.String(),
  received: Type.Integer(),
  baseVersion: Type.Integer(),
  /** What the guard would do: null (it would apply), or why it would hold the run. */
  holdReason: Nullable(Type.String()),
  added: Type.Array(Type.String()),
  changed: Type.Array(Type.String()),
  removed: Type.Array(Type.String()),
  changes: Type.Array(BankListChange),
}, { title: 'BankSyncPreview' });
export type BankSyncPreview = Static<typeof BankSyncPreview>;

/**
 * GET /admin/v1/banks/sync: the settings, the last runs newest first, and the held run waiting for a decision.
 *
 * @example
 * ```json
 * { "configured": true, "source": "https://cbr.example/s/newbik", "intervalSeconds": 86400, "maxRemovals": 10, "minBanks": 20,
 *   "lastSuccessAt": "2026-11-27T03:00:01.120Z", "runs": [...], "pending": null }
 * ```
 */
export const BankSyncStatus = Type.Object({
  /** Whether BANKS_SYNC_URL is set. */
  configured: Type.Boolean(),
  source: Nullable(Type.String()),
  intervalSeconds: Type.Integer(),
  maxRemovals: Type.Integer(),
  minBanks: Type.Integer(),
  /** When the last run that read the source (applied, held or unchanged) finished. */
  lastSuccessAt: Nullable(Type.String({ format: 'date-time' })),
  runs: Type.Array(BankSyncRun),
  pending: Nullable(BankSyncRunView),
}, { title: 'BankSyncStatus' });
export type BankSyncStatus = Static<typeof BankSyncStatus>;

export const BankSyncRunParams = Type.Object({ id: Type.String({ pattern: '^[0-9]{1,9}$' }) }, { title: 'BankSyncRunParams' });
export type BankSyncRunParams = Static<typeof BankSyncRunParams>;

/** POST /admin/v1/banks/sync/pending/{id}/approve and /reject query: a comment (approve) or reason (reject) for the history. */
export const BankSyncDecisionQuery = Type.Object({ comment: Type.Optional(Type.String({ maxLength: 500, description: 'Recorded with the decision (and with the version an approval makes)' })) }, { title: 'BankSyncDecisionQuery', additionalProperties: false });
export type BankSyncDecisionQuery = Static<typeof BankSyncDecisionQuery>;
