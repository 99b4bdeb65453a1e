import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { restorePglite } from '../../../db/restore-pglite.js';
import { testBackends } from '../../../../test/support/test-databases.js';
import { startTestGateway, type TestGateway, type TestOperator } from '../../../../test/support/test-gateway.js';

for (const backend of testBackends()) {
  describe(`GET /admin/v1/backup on ${backend.name}`, () => {
    let t: TestGateway;
    let security: TestOperator;
    let operator: TestOperator;
    before(async () => {
      t = await startTestGateway(backend);
      security = await t.addOperator('security', { name: 'backup-bea' });
      operator = await t.addOperator('operator', { name: 'ops-olga' });
      await t.addPartner();
    });
    after(() => t.close());
    const backup = (headers: Record<string, string>) => t.admin.inject({ method: 'GET', url: '/admin/v1/backup', headers });

    it('when an operator or a viewer asks for a backup, then it is refused: the file holds every sealed credential', async () => {
      const viewer = await t.addOperator('viewer');
      for (const who of [operator, viewer]) {
        const response = await backup(who.headers);
        assert.equal(response.statusCode, 403);
        assert.equal(response.headers['content-type'], 'application/json; charset=utf-8');
      }
    });

    if (backend.name === 'pglite') {
      it('when security asks, then the answer is a gzipped copy that restores to the same partners, and the backup is audited with its size and who took it', async () => {
        const response = await backup(security.headers);
        assert.equal(response.statusCode, 200);
        assert.equal(response.headers['content-type'], 'application/gzip');
        assert.match(response.headers['content-disposition'] as string, /^attachment; filename="partner-gateway-\d{4}-\d\d-\d\dT[\d-]+Z\.tar\.gz"$/);
        const bytes = response.rawPayload;
        assert.deepEqual([...bytes.subarray(0, 2)], [0x1f, 0x8b]);
        const dataDir = mkdtempSync(join(tmpdir(), 'restore-'));
        try {
          const report = await restorePglite(dataDir, new Blob([bytes]));
          const partners = (await t.admin.inject({ method: 'GET', url: '/admin/v1/partners', headers: security.headers })).json().partners.length;
          assert.equal(report.partners, partners);
          assert.equal(report.previous, undefined);
        } finally {
          rmSync(dataDir, { recursive: true, force: true });
        }
        await t.gateway.runtime.auditTrail.flush();
        const entry = (await t.admin.inject({ method: 'GET', url: '/admin/v1/audit?action=database.backup&limit=1', headers: security.headers })).json().entries[0];
        assert.equal(entry.operator.name, 'backup-bea');
        assert.equal(entry.status, 200);
        assert.equal(entry.details.bytes, bytes.length);
      });
    } else {
      it('when the gateway runs on PostgreSQL, then a backup is a 409 that points to pg_dump, and nothing is sent', async () => {
        const response = await backup(security.headers);
        assert.equal(response.statusCode, 409);
        assert.deepEqual(response.json(), {
          description_status: 'The gateway runs on PostgreSQL: back the database up with pg_dump (docs/operations-database.md); this backup is for the embedded database',
        });
      });
    }
  });
}
