import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import Fastify from 'fastify';
import { errors } from '../../errors.js';
import type { Actor } from '../../request-context.js';
import { adminAuth } from './admin-auth.js';
import { adminPermissions, describePermission } from './admin-permissions.js';
import { errorHandler } from './error-handler.js';
import { requestContext } from './request-context.js';

const TOKEN = 'permissions-test-admin-token-0123456789abcdef';

describe('admin permissions', () => {
  it('when a route declares no permission, then it is refused to everybody, the bootstrap credential included', async () => {
    const app = Fastify();
    await app.register(errorHandler, { validation: 'detailed' });
    await app.register(requestContext, { baseUrl: 'http://127.0.0.1', auditTrail: { full: () => false } });
    const refuse = async (): Promise<never> => {
      throw errors.adminUnauthorized();
    };
    // No operators, no lockout: the configured ADMIN_TOKEN alone is recognized (what `fixed` answers).
    const withToken = async (token: string, _address: string, fixed?: (token: string) => Actor | undefined): Promise<Actor> => fixed?.(token) ?? refuse();
    await app.register(adminAuth, { adminToken: TOKEN, operators: { withToken, withSession: refuse } });
    await app.register(adminPermissions);
    app.get('/admin/v1/forgotten', async () => ({ secret: true }));
    app.get('/admin/v1/declared', { config: { permission: 'read' } }, async () => ({ fine: true }));
    const headers = { authorization: `Bearer ${TOKEN}` };
    const forgotten = await app.inject({ method: 'GET', url: '/admin/v1/forgotten', headers });
    assert.equal(forgotten.statusCode, 403);
    assert.ok(!forgotten.body.includes('secret'));
    assert.equal((await app.inject({ method: 'GET', url: '/admin/v1/declared', headers })).statusCode, 200);
    assert.deepEqual(app.adminRoutes.find((route) => route.url === '/admin/v1/forgotten' && route.method === 'GET'), { method: 'GET', url: '/admin/v1/forgotten', permission: undefined, hidden: false, operationId: undefined, audit: undefined });
    await app.close();
  });

  it('when a permission is described, then the roles holding it are named, and a field\'s own', () => {
    assert.equal(describePermission('keys.write'), 'Permission: `keys.write` (roles: security, the bootstrap ADMIN_TOKEN).');
    assert.equal(
      describePermission('partners.write', { password: 'partners.credentials' }),
      'Permission: `partners.write` (roles: operator, the bootstrap ADMIN_TOKEN). Setting `password` needs `partners.credentials` instead (roles: security, the bootstrap ADMIN_TOKEN).',
    );
  });
});
