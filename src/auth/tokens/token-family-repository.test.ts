import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import type { DatabaseHandle } from '../../db/database.js';
import { createPartnerRepository } from '../../partners/partner-repository.js';
import { testBackends } from '../../../test/support/test-databases.js';
import { createTokenFamilyRepository } from './token-family-repository.js';

for (const backend of testBackends()) {
  describe(`token families on ${backend.name}`, () => {
    let handle: DatabaseHandle;
    let partnerId: string;
    before(async () => {
      handle = await backend.open();
      partnerId = randomUUID();
      await createPartnerRepository(handle.db).insert({
        id: partnerId,
        login: `family-${randomUUID().slice(0, 8)}`,
        passwordHash: 'not a real hash',
        status: 'active',
        ipAllowlist: ['127.0.0.1/32'],
        rewardTypes: ['sbp'],
      });
    });
    after(() => handle.close());

    const later = () => new Date(Date.now() + 3_600_000);

    it('starts a family with its first refresh token, which can then be spent once', async () => {
      const families = createTokenFamilyRepository(handle.db);
      const id = randomUUID();
      await families.start({ id, partnerId, generation: 0 }, { hash: `hash-${id}`, expiresAt: later() });
      assert.deepEqual(await families.find(id), { id, partnerId, generation: 0, revokedAt: null });
      const spent = await families.spend(`hash-${id}`, { hash: `next-${id}`, expiresAt: later() }, new Date());
      assert.equal(spent.outcome, 'rotated');
      assert.equal((await families.spend(`hash-${id}`, { hash: `again-${id}`, expiresAt: later() }, new Date())).outcome, 'reused');
    });

    it('creates neither the family nor the token when the token cannot be stored', async () => {
      const families = createTokenFamilyRepository(handle.db);
      const first = randomUUID();
      await families.start({ id: first, partnerId, generation: 0 }, { hash: `taken-${first}`, expiresAt: later() });
      const second = randomUUID();
      await assert.rejects(families.start({ id: second, partnerId, generation: 0 }, { hash: `taken-${first}`, expiresAt: later() }));
      assert.equal(await families.find(second), undefined);
    });
  });
}
