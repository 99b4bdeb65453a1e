/**
 * Roles enforced in one place, checked against what is documented: every operation of the admin OpenAPI document
 * declares its permission (x-permission), every route of the admin listener declares one, and every operation is
 * called with a personal token of each role and with ADMIN_TOKEN. A role holding the permission gets past the
 * check (any answer but 401 and 403: the placeholders then meet a 404 or a 422), a role lacking it gets 403, and
 * docs/admin.md's matrix is the contract's.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import { OPERATOR_ROLES, PERMISSIONS, ROLE_PERMISSIONS, roleAllows, type OperatorRole, type Permission } from '@partner-gateway/contract/admin-permissions';
import { projectFile } from '../../src/project-root.js';
import { testBackends } from '../support/test-databases.js';
import { startTestGateway, TEST_ADMIN_TOKEN, type TestGateway, type TestOperator } from '../support/test-gateway.js';

interface Operation {
  operationId: string;
  'x-permission'?: Permission;
  'x-field-permissions'?: Record<string, Permission>;
  'x-self-service'?: boolean;
  description?: string;
  requestBody?: unknown;
}

/** Values for the path parameters: well-formed, naming nothing that exists. */
const PLACEHOLDERS: Record<string, string> = {
  login: 'matrix-nobody',
  bic: '049999990',
  kid: 'matrix-no-such-kid',
  id: '00000000-0000-4000-8000-000000000000',
  tokenId: '00000000-0000-4000-8000-000000000001',
};

for (const backend of testBackends()) {
  describe(`admin roles on ${backend.name}`, () => {
    let t: TestGateway;
    let operations: Array<{ method: string; path: string; operation: Operation }>;
    const operators = {} as Record<OperatorRole, TestOperator>;
    before(async () => {
      t = await startTestGateway(backend);
      for (const role of OPERATOR_ROLES) operators[role] = await t.addOperator(role);
      const document = (await t.admin.inject({ method: 'GET', url: '/openapi.json' })).json() as { paths: Record<string, Record<string, Operation>> };
      operations = Object.entries(document.paths).flatMap(([path, byMethod]) => Object.entries(byMethod).map(([method, operation]) => ({ method: method.toUpperCase(), path, operation })));
    });
    after(() => t.close());

    const call = (method: string, path: string, headers: Record<string, string>, body?: unknown) =>
      t.admin.inject({
        method: method as 'GET',
        url: path.replace(/\{(\w+)\}/g, (_match, name: string) => PLACEHOLDERS[name] ?? 'x'),
        headers: { ...headers, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
        ...(body === undefined ? {} : { payload: JSON.stringify(body) }),
      });

    it('when the admin document is read, then every operation names its permission and the roles holding it', () => {
      assert.ok(operations.length > 30, `${operations.length} operations`);
      for (const { method, path, operation } of operations) {
        const permission = operation['x-permission'];
        if (operation.operationId === 'getSignInOptions') continue;
        assert.ok(permission && (PERMISSIONS as readonly string[]).includes(permission), `${method} ${path} has x-permission ${permission}`);
        assert.match(operation.description ?? '', new RegExp(`Permission: \`${permission.replace('.', '\\.')}\``), `${method} ${path} says it in words`);
      }
    });

    it('when the listener is asked, then every route it serves declares a permission (a new one without fails here)', () => {
      const undeclared = t.admin.adminRoutes.filter((route) => route.permission === undefined && !['/', '/assets/*', '/openapi.json'].includes(route.url) && !route.url.startsWith('/docs'));
      assert.deepEqual(undeclared, []);
    });

    it('when every operation is called by every role, then the answer is the documented matrix', async () => {
      const mismatches: string[] = [];
      for (const { method, path, operation } of operations) {
        const permission = operation['x-permission'];
        if (permission === undefined) continue;
        const body = operation.requestBody === undefined ? undefined : {};
        for (const role of OPERATOR_ROLES) {
          const response = await call(method, path, operators[role].headers, body);
          // A route whose fields need permissions of their own lets a holder of any of them in (each field is then checked).
          const allowed = roleAllows(role, permission) || Object.values(operation['x-field-permissions'] ?? {}).some((field) => roleAllows(role, field));
          const refused = response.statusCode === 403 && /does not allow/.test(response.json().description_status);
          if (allowed === refused || response.statusCode === 401) mismatches.push(`${role} ${method} ${path} (${permission}): ${response.statusCode} ${response.body.slice(0, 120)}`);
        }
        const bootstrap = await call(method, path, { authorization: `Bearer ${TEST_ADMIN_TOKEN}` }, body);
        if (bootstrap.statusCode === 401 || bootstrap.statusCode === 403) mismatches.push(`bootstrap ${method} ${path}: ${bootstrap.statusCode}`);
      }
      assert.deepEqual(mismatches, []);
    });

    it("when a partner's credentials are set with PATCH, then they need partners.credentials, and the other settings partners.write", async () => {
      const partner = await t.addPartner();
      const patch = (who: TestOperator, body: object) => call('PATCH', `/admin/v1/partners/${partner.login}`, who.headers, body);
      assert.equal((await patch(operators.operator, { password: 'a new password for it' })).statusCode, 403);
      assert.equal((await patch(operators.operator, { status: 'blocked', authMethods: ['password'] })).statusCode, 403, 'one credential field refuses the whole change');
      assert.equal((await patch(operators.security, { status: 'blocked' })).statusCode, 403);
      assert.equal((await patch(operators.viewer, { password: 'a new password for it' })).statusCode, 403);
      assert.equal((await patch(operators.operator, { status: 'blocked' })).statusCode, 200);
      assert.equal((await patch(operators.security, { password: 'a new password for it', requireSenderConstrainedTokens: false })).statusCode, 200);
      assert.equal((await t.gateway.admin.partners.get(partner.login)).status, 'blocked');
    });

    it('when an operator manages its own tokens, then any role may, and only security may for another', async () => {
      for (const role of OPERATOR_ROLES) {
        const self = operators[role];
        const created = await call('POST', `/admin/v1/operators/${self.id}/tokens`, self.headers, { label: 'my CLI' });
        assert.equal(created.statusCode, 201, role);
        assert.equal((await call('DELETE', `/admin/v1/operators/${self.id}/tokens/${created.json().id}`, self.headers)).statusCode, 200, role);
        const other = operators[role === 'security' ? 'viewer' : 'security'];
        const forOther = await call('POST', `/admin/v1/operators/${other.id}/tokens`, self.headers, { label: 'for another' });
        assert.equal(forOther.statusCode, role === 'security' ? 201 : 403, role);
      }
    });

    it('when docs/admin.md is read, then its matrix is the contract\'s', () => {
      const readme = readFileSync(projectFile('docs/admin.md'), 'utf8');
      for (const permission of PERMISSIONS) {
        const row = readme.split('\n').find((line) => line.startsWith(`| \`${permission}\` |`));
        assert.ok(row, `docs/admin.md has a row for ${permission}`);
        const cells = row.split('|').slice(2, 2 + OPERATOR_ROLES.length).map((cell) => cell.trim());
        assert.deepEqual(cells, OPERATOR_ROLES.map((role) => (ROLE_PERMISSIONS[role].includes(permission) ? '✓' : '')), permission);
      }
    });
  });
}
