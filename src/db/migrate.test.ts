import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import { describe, it } from 'node:test';
import { sql } from 'kysely';
import { openDatabase } from './database.js';
import { migrateToLatest } from './migrate.js';

describe('migrations', () => {
  it('when the schema is brought up to date, then every file of src/db/migrations is applied, in name order, with nothing to register', async () => {
    const files = readdirSync(new URL('./migrations/', import.meta.url))
      .filter((name) => /^\d{4}-.*\.ts$/.test(name) && !name.endsWith('.test.ts'))
      .map((name) => name.replace(/\.ts$/, ''))
      .sort();
    const handle = await openDatabase({});
    try {
      await migrateToLatest(handle.db);
      const { rows } = await sql<{ name: string }>`select name from kysely_migration order by name`.execute(handle.db);
      assert.ok(files.length >= 8);
      assert.deepEqual(rows.map((row) => row.name), files);
    } finally {
      await handle.close();
    }
  });
});
