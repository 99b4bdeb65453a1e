import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { ADMIN_ENDPOINTS, listEndpoints } from '@partner-gateway/contract/admin-endpoints';
import { projectFile } from '../../src/project-root.js';
import { adminOperationsReference } from '../../scripts/admin-operations.js';

describe('the admin operations reference (docs/admin-operations.md)', () => {
  const committed = readFileSync(projectFile('docs/admin-operations.md'), 'utf8');

  it('when an endpoint is declared or changed, then the committed file is what scripts/write-admin-operations.ts makes of the declarations now', () => {
    assert.equal(committed, adminOperationsReference());
  });

  it('when an endpoint is declared, then it has exactly one row, naming its client method', () => {
    for (const { name, endpoint } of listEndpoints(ADMIN_ENDPOINTS)) {
      const rows = committed.split('\n').filter((line) => line.startsWith(`| \`${endpoint.method} ${endpoint.path}\` |`));
      assert.equal(rows.length, 1, `${endpoint.method} ${endpoint.path}`);
      assert.ok(rows[0]!.includes(`| \`${name}\` |`), rows[0]);
    }
  });
});
