import { sql, type Kysely } from 'kysely';
import type { ActorRef } from '@partner-gateway/contract/admin-approvals';
import type { BankListChange, BankListEntry, BankVersionSource } from '@partner-gateway/contract/admin-bank-versions';
import { column, fromColumns, json, toColumns, type Entity } from '../db/field-map.js';
import type { Database } from '../db/schema.js';
import { errors } from '../errors.js';
import { partnerBody, publishedBanks, strongEtag } from './bank-body.js';
import { readBanks, toListEntry, writeBanks, type BankTables } from './bank-repository.js';
import type { ListChange } from './merge-registry.js';

/** A version's stored fields (migrations 0023, 0032): the one map that drives its insert and read. */
export const bankVersionFields = {
  number: column<number>('number').immutable(),
  createdAt: column<Date>('created_at').immutable(),
  author: json<ActorRef>('author'),
  approver: json<ActorRef | null>('approver'),
  source: column<BankVersionSource>('source'),
  fileName: column<string | null>('file_name'),
  comment: column<string | null>('comment'),
  restoredFrom: column<number | null>('restored_from'),
  list: json<BankListEntry[]>('list'),
  changes: json<BankListChange[]>('changes'),
  bankCount: column<number>('bank_count'),
  added: column<number>('added'),
  removed: column<number>('removed'),
  changed: column<number>('changed'),
  body: column<string>('body'),
  etag: column<string>('etag'),
};
export type BankVersion = Entity<typeof bankVersionFields>;

type Tables = BankTables & {
  bank_versions: { [K in keyof typeof bankVersionFields as (typeof bankVersionFields)[K]['column']]: unknown } & { [column: string]: unknown };
  bank_list_head: { id: number; version: number };
};

/** What a change of the list records beside the list itself. */
export interface VersionRecord {
  /** Who made the change: its operator, or for a change applied on approval its proposer (as the audit names them). */
  author: ActorRef;
  /** Who approved it, for a change applied on approval; null or absent otherwise. */
  approver?: ActorRef | null;
  /** A function when the source depends on what the change turned out to do (an edit that only moves is a reorder). */
  source: BankVersionSource | ((changes: readonly BankListChange[]) => BankVersionSource);
  fileName?: string | null;
  comment?: string | null;
  restoredFrom?: number | null;
}

export interface CommitResult {
  applied: boolean;
  baseVersion: number;
  version: number;
  changes: BankListChange[];
}

/** The list's current version: its number, its list in order, and the partners' body with its ETag. */
export interface CurrentList {
  version: number;
  list: BankListEntry[];
  body: string;
  etag: string;
}

export interface BankVersionRepository {
  current(): Promise<CurrentList>;
  /**
   * One change of the list, in one transaction: locks the head row, refuses with 409 (`bank_list_changed`) when
   * `baseVersion` is given and is not the current version, computes the next list with `build` from the list as it
   * is, and, when anything changed, writes it and records it as version current + 1. Nothing is written otherwise.
   */
  commit(baseVersion: number | undefined, build: (current: BankListEntry[]) => ListChange, record: VersionRecord, at: Date): Promise<CommitResult>;
  /** Versions older than `before` (newest first, all when undefined), at most `limit`. */
  page(before: number | undefined, limit: number): Promise<BankVersion[]>;
  get(number: number): Promise<BankVersion | undefined>;
  /** Deletes versions made before `cutoff`, never the current one; returns how many. */
  purgeBefore(cutoff: Date): Promise<number>;
}

/** `participantsRequired` (BANKS_PARTICIPANTS_REQUIRED): a version's body leaves out banks the participant list did not list. */
export function createBankVersionRepository(database: Kysely<Database>, participantsRequired = false): BankVersionRepository {
  const db = database.withTables<Tables>();
  const bodyOf = (list: readonly BankListEntry[]) => partnerBody(publishedBanks(list, participantsRequired));
  const toVersion = (row: Record<string, unknown>) => fromColumns(bankVersionFields, row);
  return {
    async current() {
      // One statement, so that the number, the list and the body are of one version.
      const row = await db
        .selectFrom('bank_list_head as h')
        .leftJoin('bank_versions as v', 'v.number', 'h.version')
        .select(['h.version', 'v.list', 'v.body', 'v.etag'])
        .where('h.id', '=', 1)
        .executeTakeFirstOrThrow();
      const version = Number(row.version);
      if (version > 0 && row.body !== null) return { version, list: row.list as BankListEntry[], body: String(row.body), etag: String(row.etag) };
      // Before the first version (a database not yet seeded), the list is the table as it is.
      const list = (await readBanks(database)).map(toListEntry);
      const body = bodyOf(list);
      return { version, list, body, etag: strongEtag(body) };
    },
    async commit(baseVersion, build, record, at) {
      return database.transaction().execute(async (trx) => {
        const locked = trx.withTables<Tables>();
        const head = await locked.selectFrom('bank_list_head').select('version').where('id', '=', 1).forUpdate().executeTakeFirstOrThrow();
        const version = Number(head.version);
        if (baseVersion !== undefined && baseVersion !== version) throw errors.bankListChanged(baseVersion, version);
        const stored = await readBanks(trx);
        const { next, changes } = build(stored.map(toListEntry));
        if (changes.length === 0 && version > 0) return { applied: false, baseVersion: version, version, changes };
        await writeBanks(trx, stored, next, at);
        const body = bodyOf(next);
        const count = (kind: BankListChange['kind']) => changes.filter((change) => change.kind === kind).length;
        await locked
          .insertInto('bank_versions')
          .values(
            toColumns(bankVersionFields, {
              number: version + 1,
              createdAt: at,
              author: record.author,
              approver: record.approver ?? null,
              source: typeof record.source === 'function' ? record.source(changes) : record.source,
              fileName: record.fileName ?? null,
              comment: record.comment ?? null,
              restoredFrom: record.restoredFrom ?? null,
              list: next,
              changes,
              bankCount: publishedBanks(next, participantsRequired).length,
              added: count('added'),
              removed: count('removed'),
              changed: count('changed'),
              body,
              etag: strongEtag(body),
            }),
          )
          .execute();
        await locked.updateTable('bank_list_head').set({ version: version + 1 }).where('id', '=', 1).execute();
        return { applied: true, baseVersion: version, version: version + 1, changes };
      });
    },
    async page(before, limit) {
      let query = db.selectFrom('bank_versions').selectAll().orderBy('number', 'desc').limit(limit);
      if (before !== undefined) query = query.where('number', '<', before);
      return (await query.execute()).map(toVersion);
    },
    async get(number) {
      const row = await db.selectFrom('bank_versions').selectAll().where('number', '=', number).executeTakeFirst();
      return row && toVersion(row);
    },
    async purgeBefore(cutoff) {
      const result = await db
        .deleteFrom('bank_versions')
        .where('created_at', '<', cutoff)
        .where('number', '<', sql<number>`(select version from bank_list_head where id = 1)`)
        .executeTakeFirst();
      return Number(result.numDeletedRows);
    },
  };
}
