import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { sql } from 'kysely';
import { openDatabase } from '../database.js';
import { migrateToLatest, migrateUpTo } from '../migrate.js';

const DAY = 86_400_000;

describe('migration 0027: token chains', () => {
  it('when tokens were made before chains were recorded, then each is given the operators it can be proven to owe', async () => {
    const handle = await openDatabase({});
    try {
      await migrateUpTo(handle.db, '0026-audit-request-id');
      for (const id of ['alice', 'bob', 'carol']) {
        await sql`insert into operators (id, name, role, created_by) values (${id}, ${id}, 'security', 'bootstrap')`.execute(handle.db);
      }
      const at = (days: number) => new Date(Date.UTC(2026, 0, 1) + days * DAY);
      const token = (id: string, operator: string, createdBy: string, created: number, revoked: number | null = null) =>
        sql`insert into operator_tokens (id, operator_id, label, token_hash, created_by, created_at, expires_at, revoked_at)
          values (${id}, ${operator}, ${id}, ${`hash-${id}`}, ${createdBy}, ${at(created)}, ${at(created + 90)}, ${revoked === null ? null : at(revoked)})`.execute(handle.db);
      await token('handed-out', 'bob', 'bootstrap', 0);
      await token('from-alice', 'bob', 'alice', 1);
      await token('bob-while-alice-live', 'bob', 'bob', 2);
      await token('alice-old-revoked', 'carol', 'alice', 3, 4);
      await token('carol-after-revoke', 'carol', 'carol', 5);
      await migrateToLatest(handle.db);
      const { rows } = await sql<{ id: string; issued_through: string[] }>`select id, issued_through from operator_tokens order by id`.execute(handle.db);
      assert.deepEqual(Object.fromEntries(rows.map((row) => [row.id, row.issued_through])), {
        'handed-out': [],
        'from-alice': ['alice'],
        'bob-while-alice-live': ['alice'],
        'alice-old-revoked': ['alice'],
        'carol-after-revoke': [],
      });
    } finally {
      await handle.close();
    }
  });
});
