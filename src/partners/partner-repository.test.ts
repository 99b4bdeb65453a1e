import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import type { DatabaseHandle } from '../db/database.js';
import { testBackends } from '../../test/support/test-databases.js';
import { createPartnerRepository, type PartnerRepository } from './partner-repository.js';

for (const backend of testBackends()) {
  describe(`partner repository on ${backend.name}`, () => {
    let handle: DatabaseHandle;
    let partners: PartnerRepository;
    before(async () => {
      handle = await backend.open();
      partners = createPartnerRepository(handle.db);
    });
    after(() => handle.close());

    const newPartner = (login: string) => ({
      id: randomUUID(),
      login,
      passwordHash: '$argon2id$fake',
      status: 'active' as const,
      ipAllowlist: ['10.0.0.0/8', '2001:db8::/32'],
      rewardTypes: ['sbp'],
    });

    it('stores a partner and returns it as a plain object with its lists intact', async () => {
      const created = await partners.insert(newPartner('acme'));
      assert.ok(created);
      const found = await partners.findByLogin('acme');
      assert.deepEqual(found?.ipAllowlist, ['10.0.0.0/8', '2001:db8::/32']);
      assert.deepEqual(found?.rewardTypes, ['sbp']);
      assert.equal(found?.status, 'active');
      assert.ok(found?.createdAt instanceof Date);
      assert.deepEqual(await partners.findById(created.id), found);
    });

    it('refuses a second partner with the same login without throwing', async () => {
      await partners.insert(newPartner('twice'));
      assert.equal(await partners.insert(newPartner('twice')), undefined);
    });

    it('updates only the fields it is given', async () => {
      await partners.insert(newPartner('changing'));
      const updated = await partners.update('changing', { status: 'blocked', ipAllowlist: [] });
      assert.equal(updated?.status, 'blocked');
      assert.deepEqual(updated?.ipAllowlist, []);
      assert.deepEqual(updated?.rewardTypes, ['sbp']);
      assert.equal(await partners.update('nobody', { status: 'blocked' }), undefined);
    });

    it('deletes a partner and counts the rest', async () => {
      await partners.insert(newPartner('leaving'));
      const before = await partners.count();
      assert.equal(await partners.delete('leaving'), true);
      assert.equal(await partners.delete('leaving'), false);
      assert.equal(await partners.count(), before - 1);
      assert.equal(await partners.findByLogin('leaving'), undefined);
    });
  });
}
