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
      assert.deepEqual(await families.find(id), { id, partnerId, generation: 0, revokedAt: null, jkt: null });
      const spent = await families.spend(`hash-${id}`, { hash: `next-${id}`, expiresAt: later() }, new Date());
      assert.equal(spent.outcome, 'rotated');
      assert.equal((await families.spend(`hash-${id}`, { hash: `again-${id}`, expiresAt: later() }, new Date())).outcome, 'reused');
    });

    it('when a refresh token is looked up, then its family, its expiry and whether it was spent come back; an unknown one is undefined', async () => {
      const families = createTokenFamilyRepository(handle.db);
      const id = randomUUID();
      const expiresAt = later();
      await families.start({ id, partnerId, generation: 2 }, { hash: `first-${id}`, expiresAt });
      assert.deepEqual(await families.findRefreshToken(`first-${id}`), { family: { id, partnerId, generation: 2, revokedAt: null, jkt: null }, expiresAt, usedAt: null });
      const spentAt = new Date();
      await families.spend(`first-${id}`, { hash: `second-${id}`, expiresAt: later() }, spentAt);
      assert.deepEqual((await families.findRefreshToken(`first-${id}`))?.usedAt, spentAt);
      assert.equal((await families.findRefreshToken(`second-${id}`))?.family.id, id);
      assert.equal(await families.findRefreshToken(`never-${id}`), undefined);
    });

    it("keeps a bound family's DPoP key thumbprint through its refreshes", async () => {
      const families = createTokenFamilyRepository(handle.db);
      const id = randomUUID();
      await families.start({ id, partnerId, generation: 0, jkt: 'thumbprint-1' }, { hash: `bound-${id}`, expiresAt: later() });
      assert.equal((await families.find(id))?.jkt, 'thumbprint-1');
      const spent = await families.spend(`bound-${id}`, { hash: `bound-next-${id}`, expiresAt: later() }, new Date());
      assert.equal(spent.outcome === 'rotated' ? spent.family.jkt : undefined, 'thumbprint-1');
    });

    it('writes an access-only family only when it is revoked, once whoever revokes it, and purges it after its expiry', async () => {
      const families = createTokenFamilyRepository(handle.db);
      const id = randomUUID();
      const gone = randomUUID();
      assert.equal(await families.find(id), undefined);
      const unstored = { partnerId, generation: 3, jkt: 'thumbprint-2', expiresAt: later() };
      await Promise.all([families.revoke(id, 'revocation', unstored), families.revoke(id, 'logout', unstored)]);
      const revoked = await families.find(id);
      assert.deepEqual({ ...revoked, revokedAt: undefined }, { id, partnerId, generation: 3, revokedAt: undefined, jkt: 'thumbprint-2' });
      assert.ok(revoked?.revokedAt instanceof Date);
      await families.revoke(gone, 'revocation', { ...unstored, expiresAt: new Date(Date.now() - 1_000) });
      assert.equal(await families.purgeExpired(new Date()) >= 1, true);
      assert.equal(await families.find(gone), undefined);
      assert.ok(await families.find(id));
    });

    it("writes nothing when an access-only family's partner is gone (its tokens died with it)", async () => {
      const families = createTokenFamilyRepository(handle.db);
      const id = randomUUID();
      await families.revoke(id, 'revocation', { partnerId: randomUUID(), generation: 0, jkt: null, expiresAt: later() });
      assert.equal(await families.find(id), undefined);
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
