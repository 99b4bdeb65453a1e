import assert from 'node:assert/strict';
import { Writable } from 'node:stream';
import { after, before, describe, it } from 'node:test';
import { pino } from 'pino';
import { reportUnknownRewardTypes } from '../../../bootstrap/reward-type-report.js';
import { testBackends } from '../../../../test/support/test-databases.js';
import { startSiblingGateway, startTestGateway, TEST_ADMIN_TOKEN, type TestGateway } from '../../../../test/support/test-gateway.js';

const headers = { authorization: `Bearer ${TEST_ADMIN_TOKEN}`, 'content-type': 'application/json' };

for (const backend of testBackends()) {
  describe(`the reward type catalogue (REWARD_TYPES) on ${backend.name}`, () => {
    let t: TestGateway;
    let admin = '';
    before(async () => {
      t = await startTestGateway(backend, { env: { REWARD_TYPES: 'sbp, cashback' } });
      admin = await t.admin.listen({ host: '127.0.0.1', port: 0 });
    });
    after(() => t.close());

    const call = async (method: string, path: string, body?: unknown) => {
      const response = await fetch(`${admin}${path}`, { method, headers, ...(body === undefined ? {} : { body: JSON.stringify(body) }) });
      return { status: response.status, body: (await response.json()) as Record<string, unknown> & { errors?: Array<{ field: string; message: string }> } };
    };

    it('when the console asks for the catalogue, then GET /admin/v1/reward-types lists REWARD_TYPES in its order, and the admin document lists them for the partner bodies', async () => {
      assert.deepEqual(await call('GET', '/admin/v1/reward-types'), { status: 200, body: { rewardTypes: ['sbp', 'cashback'] } });
      assert.equal((await fetch(`${admin}/admin/v1/reward-types`)).status, 401, 'behind a credential like every admin route');
      type Body = { properties: { rewardTypes: { items: { enum?: string[] } } } };
      const document = (await (await fetch(`${admin}/openapi.json`)).json()) as {
        paths: Record<string, Record<string, { requestBody: { content: Record<string, { schema: { $ref: string } }> } }>>;
        components: { schemas: Record<string, Body> };
      };
      // The bodies are named schemas: the operation refers to its component.
      const bodyOf = (ref: string) => document.components.schemas[ref.replace('#/components/schemas/', '')]!;
      for (const [path, method] of [
        ['/admin/v1/partners', 'post'],
        ['/admin/v1/partners/{login}', 'patch'],
      ] as const) {
        assert.deepEqual(bodyOf(document.paths[path]![method]!.requestBody.content['application/json']!.schema.$ref).properties.rewardTypes.items.enum, ['sbp', 'cashback'], `${method} ${path}`);
      }
    });

    it('when a partner is created or changed with a type outside the catalogue, then 422 names it with the valid ones, and nothing changes', async () => {
      const refused = await call('POST', '/admin/v1/partners', { login: 'typo-shop', password: 'a long enough password', ipAllowlist: [], rewardTypes: ['sbp', 'spb'] });
      assert.equal(refused.status, 422);
      assert.deepEqual(refused.body.errors, [{ field: 'rewardTypes[1]', message: 'must be one of: sbp, cashback' }]);
      assert.equal(refused.body.description_status, 'The request contains invalid data (rewardTypes[1]: must be one of: sbp, cashback); repeat the request with correct data');
      assert.equal((await call('GET', '/admin/v1/partners/typo-shop')).status, 404);

      // Every unknown type at once.
      const both = await call('POST', '/admin/v1/partners', { login: 'typo-shop', password: 'a long enough password', ipAllowlist: [], rewardTypes: ['cards', 'sbp', 'spb'] });
      assert.deepEqual(both.body.errors?.map((error) => error.field), ['rewardTypes[0]', 'rewardTypes[2]']);
      // The service holds the same rule for callers other than the routes (an approved proposal, a script).
      await assert.rejects(t.gateway.admin.partners.create({ login: 'typo-shop', password: 'a long enough password', ipAllowlist: ['10.0.0.5/24'], rewardTypes: ['spb'] }), (error: { status: number; extra: { details: unknown } }) => {
        assert.equal(error.status, 422);
        assert.deepEqual(error.extra.details, [
          { field: 'ipAllowlist[0]', message: '10.0.0.5/24 has host bits set; did you mean 10.0.0.0/24?' },
          { field: 'rewardTypes[0]', message: 'must be one of: sbp, cashback' },
        ]);
        return true;
      });
      await assert.rejects(t.gateway.admin.partners.update('nobody-yet', { rewardTypes: ['spb'] }), { status: 404 });

      const created = await call('POST', '/admin/v1/partners', { login: 'typo-shop', password: 'a long enough password', ipAllowlist: [], rewardTypes: ['cashback', 'sbp'] });
      assert.equal(created.status, 201);
      assert.deepEqual({ rewardTypes: created.body.rewardTypes, unknownRewardTypes: created.body.unknownRewardTypes }, { rewardTypes: ['cashback', 'sbp'], unknownRewardTypes: [] });

      const patched = await call('PATCH', '/admin/v1/partners/typo-shop', { rewardTypes: ['spb'] });
      assert.equal(patched.status, 422);
      assert.deepEqual(patched.body.errors, [{ field: 'rewardTypes[0]', message: 'must be one of: sbp, cashback' }]);
      await assert.rejects(t.gateway.admin.partners.update('typo-shop', { rewardTypes: ['sbp', 'spb'] }), { status: 422 });
      assert.deepEqual((await call('GET', '/admin/v1/partners/typo-shop')).body.rewardTypes, ['cashback', 'sbp']);
    });

    it('when a partner holds a type the catalogue left out, then its view and the list name it, other changes still work, and setting its types again clears it', async () => {
      // Stored by an instance whose catalogue still had the type (as before REWARD_TYPES narrowed).
      const older = await startSiblingGateway(t, { env: { REWARD_TYPES: 'sbp,legacy_bonus' } });
      try {
        await older.gateway.admin.partners.create({ login: 'legacy-shop', password: 'a long enough password', ipAllowlist: [], rewardTypes: ['sbp', 'legacy_bonus'] });
      } finally {
        await older.close();
      }
      const shown = await call('GET', '/admin/v1/partners/legacy-shop');
      assert.deepEqual({ rewardTypes: shown.body.rewardTypes, unknownRewardTypes: shown.body.unknownRewardTypes }, { rewardTypes: ['legacy_bonus', 'sbp'], unknownRewardTypes: ['legacy_bonus'] });
      const listed = (await call('GET', '/admin/v1/partners')).body.partners as Array<{ login: string; unknownRewardTypes: string[] }>;
      assert.deepEqual(listed.find((partner) => partner.login === 'legacy-shop')?.unknownRewardTypes, ['legacy_bonus']);

      const otherChange = await call('PATCH', '/admin/v1/partners/legacy-shop', { ipAllowlist: ['203.0.113.7'] });
      assert.equal(otherChange.status, 200);
      assert.deepEqual(otherChange.body.unknownRewardTypes, ['legacy_bonus']);
      const fixed = await call('PATCH', '/admin/v1/partners/legacy-shop', { rewardTypes: ['sbp'] });
      assert.deepEqual({ status: fixed.status, rewardTypes: fixed.body.rewardTypes, unknownRewardTypes: fixed.body.unknownRewardTypes }, { status: 200, rewardTypes: ['sbp'], unknownRewardTypes: [] });

      // The audit entry keeps the settings before and after, not the derived warning.
      await t.gateway.admin.audit.flush();
      const entries = (await call('GET', '/admin/v1/audit?partner=legacy-shop&action=partner.update')).body.entries as Array<{ details: { before: Record<string, unknown>; after: Record<string, unknown> } }>;
      assert.deepEqual(entries[0]!.details.before.rewardTypes, ['legacy_bonus', 'sbp']);
      assert.ok(!('unknownRewardTypes' in entries[0]!.details.before) && !('unknownRewardTypes' in entries[0]!.details.after));
    });

    it('when partners hold types the catalogue left out, then the start-up report names each partner and its unknown types in one warning', async () => {
      const older = await startSiblingGateway(t, { env: { REWARD_TYPES: 'sbp,spb,gift' } });
      try {
        await older.gateway.admin.partners.create({ login: 'typo-one', password: 'a long enough password', ipAllowlist: [], rewardTypes: ['spb'] });
        await older.gateway.admin.partners.create({ login: 'typo-two', password: 'a long enough password', ipAllowlist: [], rewardTypes: ['gift', 'sbp', 'spb'] });
      } finally {
        await older.close();
      }
      const lines: Array<Record<string, unknown>> = [];
      const logger = pino({ level: 'info' }, new Writable({ write(chunk, _encoding, done) { lines.push(JSON.parse(String(chunk))); done(); } }));
      assert.equal(await reportUnknownRewardTypes(t.gateway.admin.partners, logger), 2);
      assert.equal(lines.length, 1);
      const [line] = lines;
      assert.equal(line!.level, 40);
      assert.equal(line!.reason, 'unknown_reward_types');
      assert.deepEqual(line!.partners, [
        { login: 'typo-one', unknownRewardTypes: ['spb'] },
        { login: 'typo-two', unknownRewardTypes: ['gift', 'spb'] },
      ]);
      assert.match(String(line!.msg), /^2 partners hold reward types not in REWARD_TYPES \(sbp, cashback\): typo-one \(spb\), typo-two \(gift, spb\); /);
      assert.ok(!JSON.stringify(line).includes('a long enough password'));

      for (const login of ['typo-one', 'typo-two']) await call('PATCH', `/admin/v1/partners/${login}`, { rewardTypes: ['sbp'] });
      assert.equal(await reportUnknownRewardTypes(t.gateway.admin.partners, logger), 0);
      assert.equal(lines.length, 1, 'nothing to report: no line');
    });
  });
}
