import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import type { DatabaseHandle } from '../db/database.js';
import { testBackends } from '../../test/support/test-databases.js';
import { defaultsOf } from '../db/field-map.js';
import { createPartnerRepository, partnerFields, type PartnerRepository } from './partner-repository.js';

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

    it('when a partner is stored with only its required fields, then every other field reads back as the field map says the database defaults it', async () => {
      const created = await partners.insert(newPartner('defaults'));
      assert.ok(created);
      const { createdAt, updatedAt, ...declared } = defaultsOf(partnerFields);
      const stored = Object.fromEntries(Object.keys(declared).map((key) => [key, created[key as keyof typeof created]]));
      assert.deepEqual(stored, declared);
      assert.ok(createdAt instanceof Date && created.createdAt instanceof Date && updatedAt instanceof Date && created.updatedAt instanceof Date);
    });

    it('when an update names a field, then only that field (and the update time) changes', async () => {
      const created = await partners.insert(newPartner('one-field'));
      assert.ok(created);
      const updated = await partners.update('one-field', { subjectDn: 'CN=one-field' });
      assert.ok(updated);
      const { updatedAt: _after, subjectDn, ...rest } = updated;
      const { updatedAt: _before, subjectDn: _none, ...restBefore } = created;
      assert.equal(subjectDn, 'CN=one-field');
      assert.deepEqual(rest, restBefore);
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

    it('when partners hold reward types outside the catalogue, then exactly they are listed, by login, with their stored types', async () => {
      await partners.insert({ ...newPartner('types-typo'), rewardTypes: ['sbp', 'spb'] });
      await partners.insert({ ...newPartner('types-none'), rewardTypes: [] });
      await partners.insert({ ...newPartner('types-gone'), rewardTypes: ['cashback'] });
      const outside = (await partners.withRewardTypesOutside(['sbp'])).filter((partner) => partner.login.startsWith('types-'));
      assert.deepEqual(outside, [
        { login: 'types-gone', rewardTypes: ['cashback'] },
        { login: 'types-typo', rewardTypes: ['sbp', 'spb'] },
      ]);
      assert.deepEqual(
        (await partners.withRewardTypesOutside(['sbp', 'spb', 'cashback'])).filter((partner) => partner.login.startsWith('types-')),
        [],
      );
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
