import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { sql } from 'kysely';
import { openDatabase } from '../database.js';
import { migrateToLatest, migrateUpTo } from '../migrate.js';

describe('migration 0032: bank version approver', () => {
  it('when versions were applied on approval before approvers were recorded, then the audit trail gives each its proposer and approver', async () => {
    const handle = await openDatabase({});
    try {
      await migrateUpTo(handle.db, '0030-sso-login-address');
      const version = (number: number, author: object) =>
        sql`insert into bank_versions (number, author, source, list, changes, bank_count, added, removed, changed, body, etag)
          values (${number}, ${JSON.stringify(author)}::jsonb, 'edit', '[]'::jsonb, '[]'::jsonb, 0, 0, 0, 1, '[]', ${`"e${number}"`})`.execute(handle.db);
      const approverAsAuthor = { id: 'arne', name: 'arne', credential: 'token' };
      await version(1, { id: 'gateway', name: 'the gateway', credential: 'system' });
      await version(2, approverAsAuthor);
      await version(3, { id: 'olga', name: 'olga', credential: 'sso' });
      await version(4, approverAsAuthor);
      const entry = (action: string, versionNumber: number, approver: string | null) =>
        sql`insert into audit_log (at, action, outcome, status, details, operator_id, operator_name, operator_credential, operator_through, approver_id, approver_name, approver_credential)
          values (now(), ${action}, 'success', 200, ${JSON.stringify({ version: versionNumber })}::jsonb, 'paula', 'paula', 'token', ${approver ? '["root"]' : null}::jsonb,
            ${approver}, ${approver}, ${approver ? 'token' : null})`.execute(handle.db);
      await entry('bank.edit', 2, 'arne');
      await entry('bank.edit', 3, null);
      await entry('partner.update', 4, 'arne');
      await migrateToLatest(handle.db);
      const { rows } = await sql<{ number: number; author: { id: string; issuedThrough?: string[] }; approver: { id: string } | null }>`select number, author, approver from bank_versions order by number`.execute(handle.db);
      assert.deepEqual(rows.map((row) => [row.number, row.author.id, row.approver?.id ?? null]), [
        [1, 'gateway', null],
        [2, 'paula', 'arne'],
        [3, 'olga', null],
        [4, 'arne', null],
      ]);
      assert.deepEqual(rows[1]!.author, { id: 'paula', name: 'paula', credential: 'token', issuedThrough: ['root'] });
      assert.deepEqual(rows[1]!.approver, { id: 'arne', name: 'arne', credential: 'token' });
    } finally {
      await handle.close();
    }
  });
});
