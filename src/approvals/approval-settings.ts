import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';

/**
 * Which actions need a second operator's approval (migration 0021): none by default. Read on every checked
 * request from memory, kept for `cacheTtlMs` and forgotten at once when changed here or on another instance
 * (`invalidate`, the change feed).
 */
export interface ApprovalSettingsStore {
  requiredActions(): Promise<ReadonlySet<string>>;
  /** Replaces the set of actions that need approval. */
  replace(actions: readonly string[], updatedBy: string): Promise<void>;
  invalidate(): void;
}

type SettingsTable = { action: string; updated_by: string; updated_at: Date };

export function createApprovalSettingsStore(database: Kysely<Database>, options: { cacheTtlMs: number; now: () => number }): ApprovalSettingsStore {
  const db = database.withTables<{ approval_settings: SettingsTable }>();
  let cached: { actions: ReadonlySet<string>; until: number } | undefined;
  return {
    async requiredActions() {
      if (cached && cached.until > options.now()) return cached.actions;
      const rows = await db.selectFrom('approval_settings').select('action').execute();
      const actions = new Set(rows.map((row) => row.action));
      cached = { actions, until: options.now() + options.cacheTtlMs };
      return actions;
    },
    async replace(actions, updatedBy) {
      await db.transaction().execute(async (trx) => {
        await trx.deleteFrom('approval_settings').execute();
        if (actions.length > 0) {
          await trx
            .insertInto('approval_settings')
            .values(actions.map((action) => ({ action, updated_by: updatedBy, updated_at: new Date(options.now()) })))
            .execute();
        }
      });
      cached = undefined;
    },
    invalidate() {
      cached = undefined;
    },
  };
}
