/**
 * The bound on bank exclusion rules (MAX_EXCLUSION_RULES) holds against operators excluding at the same moment,
 * through two instances of one database: the rules are counted and written under one table lock.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { sql } from 'kysely';
import { MAX_EXCLUSION_RULES } from '../../src/banks/admission/exclusion-rules.js';
import { testBackends } from '../support/test-databases.js';
import { startSiblingGateway, startTestGateway, TEST_ADMIN_TOKEN, type TestGateway } from '../support/test-gateway.js';

const ROOM = 5;
const AT_ONCE = 20;

for (const backend of testBackends()) {
  describe(`bank exclusion rules on ${backend.name}`, () => {
    let t: TestGateway;
    let sibling: TestGateway;
    before(async () => {
      t = await startTestGateway(backend);
      sibling = await startSiblingGateway(t);
    });
    after(async () => {
      await sibling.close();
      await t.close();
    });

    const rules = async () => Number((await sql<{ n: string }>`select count(*) as n from bank_exclusions`.execute(t.handle.db)).rows[0]!.n);
    const exclude = (on: TestGateway, value: string) =>
      on.admin.inject({ method: 'POST', url: '/admin/v1/banks/exclusions', headers: { authorization: `Bearer ${TEST_ADMIN_TOKEN}` }, payload: { value, reason: 'not a bank a consumer is paid into' } });

    it(`when ${AT_ONCE} name rules are sent at once through two instances with room for ${ROOM}, then exactly ${ROOM} are kept and the others refused with 422`, async () => {
      const filler = MAX_EXCLUSION_RULES - ROOM - (await rules());
      const gateway = JSON.stringify({ id: 'gateway', name: 'the gateway', credential: 'system' });
      await sql`insert into bank_exclusions (kind, value, reason, created_by, created_at)
        select 'name', 'filler ' || g, 'room for the test', ${gateway}::jsonb, now() from generate_series(1, ${filler}) g`.execute(t.handle.db);
      assert.equal(await rules(), MAX_EXCLUSION_RULES - ROOM);

      const words = Array.from({ length: AT_ONCE }, (_, i) => `probe ${String.fromCharCode(97 + i)}bank`);
      const answers = await Promise.all(words.map((word, i) => exclude(i % 2 === 0 ? t : sibling, word)));
      const statuses = answers.map((answer) => answer.statusCode);
      assert.equal(statuses.filter((status) => status === 201).length, ROOM, `statuses: ${statuses.join(' ')}`);
      assert.equal(statuses.filter((status) => status === 422).length, AT_ONCE - ROOM, `statuses: ${statuses.join(' ')}`);
      assert.equal(await rules(), MAX_EXCLUSION_RULES);
      const refused = answers.find((answer) => answer.statusCode === 422)!.json() as { description_status: string };
      assert.match(JSON.stringify(refused), /at most 1000 exclusions/);
    });
  });
}
