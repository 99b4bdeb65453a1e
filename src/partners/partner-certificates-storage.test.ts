import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import type { DatabaseHandle } from '../db/database.js';
import { createTestPki } from '../../test/support/openssl-certificates.js';
import { testBackends } from '../../test/support/test-databases.js';
import { validatePartnerCertificates } from './partner-certificates.js';
import { createPartnerRepository, type PartnerRepository } from './partner-repository.js';

const pki = createTestPki();
const certificate = pki.issue({ subject: '/O=Acme/CN=stored' });
after(() => pki.remove());

for (const backend of testBackends()) {
  describe(`partner certificates in storage on ${backend.name}`, () => {
    let handle: DatabaseHandle;
    let partners: PartnerRepository;
    before(async () => {
      handle = await backend.open();
      partners = createPartnerRepository(handle.db);
    });
    after(() => handle.close());

    const insert = (login: string) =>
      partners.insert({ id: randomUUID(), login, passwordHash: '$argon2id$fake', status: 'active', ipAllowlist: [], rewardTypes: ['sbp'] });

    it('a new partner has no certificates and no subject', async () => {
      const created = await insert(`fresh-${randomUUID().slice(0, 8)}`);
      assert.equal(created?.certificates, null);
      assert.equal(created?.subjectDn, null);
    });

    it('stores certificates and a subject DN and reads them back as they were, and clears them', async () => {
      const login = `stored-${randomUUID().slice(0, 8)}`;
      await insert(login);
      const registered = validatePartnerCertificates([certificate.cert]);
      await partners.update(login, { certificates: registered, subjectDn: 'CN=stored,O=Acme' });
      const found = await partners.findByLogin(login);
      assert.deepEqual(found?.certificates, registered);
      assert.equal(found?.subjectDn, 'CN=stored,O=Acme');
      await partners.update(login, { subjectDn: null });
      assert.deepEqual((await partners.findByLogin(login))?.certificates, registered, 'changing one leaves the other');
      await partners.update(login, { certificates: null });
      assert.equal((await partners.findByLogin(login))?.certificates, null);
    });
  });
}
