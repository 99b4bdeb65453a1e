import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { ADMIN_ENDPOINTS, listEndpoints } from '@partner-gateway/contract/admin-endpoints';
import { testBackends } from '../../../../test/support/test-databases.js';
import { startTestGateway, type TestGateway } from '../../../../test/support/test-gateway.js';

/**
 * The admin listener's routes that are not admin API operations, and why: the console's files and the browser's
 * sign-in redirects, the documents, and the metrics scrape. Anything else must be a declared endpoint.
 */
const NOT_OPERATIONS = new Set(['GET /', 'GET /assets/*', 'GET /openapi.json', 'GET /metrics', 'GET /sso/start', 'GET /sso/callback']);

describe('every admin route is an endpoint the contract declares', () => {
  let t: TestGateway;
  before(async () => {
    t = await startTestGateway(testBackends()[0]!);
  });
  after(() => t.close());

  const routes = () => t.admin.adminRoutes.filter((route) => route.method !== 'HEAD' && !route.url.startsWith('/docs') && !NOT_OPERATIONS.has(`${route.method} ${route.url}`));

  it('when the admin app is built, then each of its operations is declared once, with the declaration\'s operation id, permission and audit action', () => {
    const declared = new Map(listEndpoints(ADMIN_ENDPOINTS).map(({ endpoint }) => [`${endpoint.method} ${endpoint.path}`, endpoint]));
    const undeclared = routes().filter((route) => !declared.has(`${route.method} ${route.url}`));
    assert.deepEqual(undeclared.map((route) => `${route.method} ${route.url}`), []);
    for (const route of routes()) {
      const endpoint = declared.get(`${route.method} ${route.url}`)!;
      assert.deepEqual({ operationId: route.operationId, permission: route.permission, audit: route.audit }, { operationId: endpoint.operationId, permission: endpoint.permission, audit: endpoint.audit }, `${route.method} ${route.url}`);
    }
  });

  it('when an endpoint declares a maker-checker action, then the settings can require it; every action they list is one an endpoint submits', async () => {
    const { actions } = await t.gateway.admin.approvals.settings();
    const declared = new Set(listEndpoints(ADMIN_ENDPOINTS).flatMap(({ endpoint }) => (endpoint.checked ? [endpoint.checked] : [])));
    assert.deepEqual(actions.map((action) => action.action).sort(), [...declared].sort());
    // The approver needs what the proposer needed: the action's permission is its endpoint's.
    for (const { endpoint } of listEndpoints(ADMIN_ENDPOINTS).filter(({ endpoint }) => endpoint.checked)) {
      assert.equal(actions.find((action) => action.action === endpoint.checked)?.permission, endpoint.permission, endpoint.operationId);
    }
  });

  it('when an endpoint is declared, then the admin app serves it', () => {
    const served = new Set(routes().map((route) => `${route.method} ${route.url}`));
    const missing = listEndpoints(ADMIN_ENDPOINTS).filter(({ endpoint }) => !served.has(`${endpoint.method} ${endpoint.path}`));
    assert.deepEqual(missing.map(({ name }) => name), []);
  });
});
