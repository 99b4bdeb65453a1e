import type { ActorRef } from '@partner-gateway/contract/admin-approvals';
import type { AuditEntryView } from '@partner-gateway/contract/admin-audit';

/** One line of the audit trail. Never carries a password, a JWE, a token or a hash. */
export interface AuditEntry {
  at: Date;
  /** login, refresh, logout, banks, or an admin change such as partner.update. */
  action: string;
  outcome: 'success' | 'failure';
  status: number | null;
  /** The partner concerned: proven on success, claimed on failure. */
  partner: string | null;
  clientAddress: string | null;
  /** Why it failed (wrong_password, ip_not_allowed, replayed_jti, ...). */
  reason: string | null;
  requestId: string | null;
  /** For admin changes: what changed, before and after. */
  details: Record<string, unknown> | null;
  /** Who made an admin change (for an approved proposal, who proposed it); null for partner calls. Absent means null. */
  operator?: ActorRef | null;
  /** Who approved it, for a change made by approving a proposal. Absent means null. */
  approver?: ActorRef | null;
  /**
   * Set on a successful call the trail counts rather than lists (see createAuditWriter): a bearer banks call,
   * `key` being its token's hash (the first 16 hex digits of its SHA-256, never the token), or a
   * client-credentials grant, `key` being how the client authenticated and whether the token is bound. Such
   * calls of one action, partner, client address, key and status within one second may share one entry.
   * With `windowMs`, the entry is held back (not queued) until its window ends and counts every like call of
   * that window: what anyone may repeat at will (a failed single sign-on callback) costs one row per address
   * and window, its `count` saying how many calls it stands for.
   */
  aggregate?: { key: string; windowMs?: number };
}

export interface StoredAuditEntry extends Omit<AuditEntry, 'aggregate' | 'operator' | 'approver'> {
  operator: ActorRef | null;
  approver: ActorRef | null;
  id: string;
  /** The calls this entry stands for: 1, or more for aggregated successful bearer banks calls and grants. */
  count: number;
  /** For an aggregated entry, the last call's request id (`requestId` is the first's); null otherwise. */
  lastRequestId: string | null;
}

/** An entry as the admin API shows it (the contract's AuditEntryView): the search, the export. */
export function toAuditEntryView(entry: StoredAuditEntry): AuditEntryView {
  return { ...entry, at: entry.at.toISOString() };
}

/**
 * The entry with every string PostgreSQL would refuse made storable: U+0000, which text and jsonb cannot
 * hold, and a lone UTF-16 surrogate, whose JSON escape jsonb refuses, each become U+FFFD, in the keys and
 * values of `details` too. Entries carry what clients sent (a claimed login, a partnerName), and a batch is
 * written as one statement, so a single such value would otherwise fail its batch and hold up every entry
 * queued after it.
 */
export function storableAuditEntry(entry: AuditEntry): AuditEntry {
  return {
    ...entry,
    action: storableText(entry.action),
    partner: entry.partner === null ? null : storableText(entry.partner),
    clientAddress: entry.clientAddress === null ? null : storableText(entry.clientAddress),
    reason: entry.reason === null ? null : storableText(entry.reason),
    requestId: entry.requestId === null ? null : storableText(entry.requestId),
    details: entry.details === null ? null : (storableJson(entry.details) as Record<string, unknown>),
    operator: storableActor(entry.operator),
    approver: storableActor(entry.approver),
  };
}

function storableActor(actor: ActorRef | null | undefined): ActorRef | null {
  if (!actor) return null;
  const stored: ActorRef = { id: storableText(actor.id), name: storableText(actor.name), credential: actor.credential };
  return actor.issuedThrough && actor.issuedThrough.length > 0 ? { ...stored, issuedThrough: actor.issuedThrough.map(storableText) } : stored;
}

const UNSTORABLE = /\0|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

/** The text with what PostgreSQL cannot store (U+0000, lone surrogates) replaced by U+FFFD. */
export function storableText(value: string): string {
  return value.replace(UNSTORABLE, '\ufffd');
}

function storableJson(value: unknown): unknown {
  if (typeof value === 'string') return storableText(value);
  if (Array.isArray(value)) return value.map(storableJson);
  if (value !== null && typeof value === 'object') {
    // What JSON.stringify would write: a Date as its ISO string, not as the empty object of its own keys.
    const { toJSON } = value as { toJSON?: unknown };
    if (typeof toJSON === 'function') return storableJson(toJSON.call(value));
    return Object.fromEntries(Object.entries(value).map(([key, inner]) => [storableText(key), storableJson(inner)]));
  }
  return value;
}
