import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { testBackends } from '../../test/support/test-databases.js';
import type { DatabaseHandle } from '../db/database.js';
import { errors, type AppError } from '../errors.js';
import { createPartnerRepository, type PartnerRepository } from './partner-repository.js';
import { createPartnerSubresourceAdmin, type PartnerSubresource } from './partner-subresource-admin.js';

// A sub-resource made up for the test, over a field every partner has: its reward types. What the generic service
// does (find, check, store, end sessions, answer the view before and after) is the same for keys and certificates.
const rewardTypes: PartnerSubresource<{ types: string[] }, { types: string[] }> = {
  changesOf: ({ types }) => {
    if (types.includes('bad')) throw errors.validationFailed([{ field: 'types', message: 'refused' }]);
    return { rewardTypes: types };
  },
  removal: { rewardTypes: [] },
  endsSessions: (before, changes) => before.rewardTypes.some((type) => !(changes.rewardTypes ?? before.rewardTypes).includes(type)),
  view: (partner) => (partner.rewardTypes.length === 0 ? null : { types: partner.rewardTypes }),
};

describe(`a partner sub-resource's admin service on ${testBackends()[0]!.name}`, () => {
  let handle: DatabaseHandle;
  let partners: PartnerRepository;
  before(async () => {
    handle = await testBackends()[0]!.open();
    partners = createPartnerRepository(handle.db);
  });
  after(() => handle.close());

  const admin = () => createPartnerSubresourceAdmin(partners, rewardTypes);
  const addPartner = async (types: string[]) => {
    const login = `sub-${randomUUID().slice(0, 8)}`;
    await partners.insert({ id: randomUUID(), login, passwordHash: '$argon2id$fake', status: 'active', ipAllowlist: [], rewardTypes: types });
    return login;
  };
  const generation = async (login: string) => (await partners.findByLogin(login))!.tokenGeneration;

  it('when a body adds to the sub-resource, then it is stored, the view before and after is answered, and sessions go on', async () => {
    const login = await addPartner(['sbp']);
    assert.deepEqual(await admin().set(login, { types: ['sbp', 'cards'] }), { before: { types: ['sbp'] }, after: { types: ['sbp', 'cards'] }, sessionsEnded: false });
    assert.deepEqual((await partners.findByLogin(login))?.rewardTypes, ['sbp', 'cards']);
    assert.equal(await generation(login), 0);
  });

  it('when a body takes something away, then the partner’s sessions end (its token generation moves on)', async () => {
    const login = await addPartner(['sbp', 'cards']);
    assert.equal((await admin().set(login, { types: ['cards'] })).sessionsEnded, true);
    assert.equal(await generation(login), 1);
  });

  it('when it is removed, then the removal is stored, the view after is null, and sessions end if something was taken away', async () => {
    const login = await addPartner(['sbp']);
    assert.deepEqual(await admin().remove(login), { before: { types: ['sbp'] }, after: null, sessionsEnded: true });
    assert.deepEqual((await partners.findByLogin(login))?.rewardTypes, []);
    assert.deepEqual(await admin().remove(login), { before: null, after: null, sessionsEnded: false }, 'removing nothing ends nothing');
  });

  it('when the body is refused, then nothing is stored', async () => {
    const login = await addPartner(['sbp']);
    await assert.rejects(admin().set(login, { types: ['bad'] }), (error: AppError) => error.status === 422);
    assert.deepEqual((await partners.findByLogin(login))?.rewardTypes, ['sbp']);
  });

  it('when the partner is unknown, then it is a 404 before the body is checked', async () => {
    await assert.rejects(admin().set('nobody-here', { types: ['bad'] }), (error: AppError) => error.status === 404);
    await assert.rejects(admin().remove('nobody-here'), (error: AppError) => error.status === 404);
  });
});
