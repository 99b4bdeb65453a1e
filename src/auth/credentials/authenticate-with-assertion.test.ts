import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { partnerFixture } from '../../../test/support/partner-fixture.js';
import { testKey } from '../../../test/support/oauth-client.js';
import type { Partner } from '../../partners/partner.js';
import type { PartnerChanges } from '../../partners/partner-repository.js';
import { validatePartnerJwks, type PartnerKey } from '../../partners/partner-keys.js';
import { partnerKeySource } from './authenticate-with-assertion.js';
import { createRemoteJwks } from '../../partners/remote-jwks.js';

/** The partner repository's contract for this step (find by login, update), in memory. */
function partnersOf(...list: Partner[]) {
  const byLogin = new Map(list.map((partner) => [partner.login, partner]));
  const updates: Array<{ login: string; changes: PartnerChanges }> = [];
  return {
    updates,
    findByLogin: async (login: string) => byLogin.get(login),
    update: async (login: string, changes: PartnerChanges) => {
      updates.push({ login, changes });
      const updated = { ...byLogin.get(login)!, ...changes } as Partner;
      byLogin.set(login, updated);
      return updated;
    },
  };
}

describe('partnerKeySource', () => {
  let server: Server;
  let served: { status: number; body: string };
  let base: string;
  let published: PartnerKey[];
  before(async () => {
    const key = await testKey();
    published = await validatePartnerJwks([key.publicJwk]);
    served = { status: 200, body: JSON.stringify({ keys: [key.publicJwk] }) };
    server = createServer((_request, response) => response.writeHead(served.status, { 'content-type': 'application/json' }).end(served.body));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  after(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it("returns a partner's registered keys, and learns the partner it looked up", async () => {
    const registered = await validatePartnerJwks([(await testKey()).publicJwk]);
    const partners = partnersOf(partnerFixture({ login: 'acme', jwks: registered }));
    let seen: Partner | undefined;
    const keysOf = partnerKeySource(partners as never, createRemoteJwks({ now: Date.now }), Date.now, (partner) => (seen = partner));
    assert.deepEqual(await keysOf('acme', undefined), registered);
    assert.equal(seen?.login, 'acme');
    assert.deepEqual(await keysOf('nobody', undefined), []);
    assert.equal(seen, undefined);
  });

  it('fetches the keys published at a jwksUri and records the fetch on the partner', async () => {
    const partners = partnersOf(partnerFixture({ login: 'remote', jwksUri: `${base}/jwks.json` }));
    const keysOf = partnerKeySource(partners as never, createRemoteJwks({ now: Date.now }), Date.now, () => {});
    const keys = await keysOf('remote', published[0]!.kid);
    assert.deepEqual(keys.map((key) => key.thumbprint), published.map((key) => key.thumbprint));
    assert.equal(partners.updates.length, 1);
    assert.deepEqual(partners.updates[0]!.changes.jwks?.map((key) => key.thumbprint), published.map((key) => key.thumbprint));
    assert.ok(partners.updates[0]!.changes.jwksFetchedAt instanceof Date);
    await keysOf('remote', published[0]!.kid);
    assert.equal(partners.updates.length, 1, 'a cached set is not recorded again');
  });

  it('falls back on the stored copy for 24 hours when the jwksUri does not answer', async () => {
    served = { status: 503, body: '' };
    try {
      const recent = partnerFixture({ login: 'recent', jwksUri: `${base}/down.json`, jwks: published, jwksFetchedAt: new Date(Date.now() - 3600_000) });
      const stale = partnerFixture({ login: 'stale', jwksUri: `${base}/down.json`, jwks: published, jwksFetchedAt: new Date(Date.now() - 25 * 3600_000) });
      const unavailable: string[] = [];
      const keysOf = partnerKeySource(partnersOf(recent, stale) as never, createRemoteJwks({ now: Date.now }), Date.now, (partner, keysUnavailable) => {
        if (keysUnavailable) unavailable.push(partner!.login);
      });
      assert.equal((await keysOf('recent', undefined)).length, 1);
      assert.deepEqual(await keysOf('stale', undefined), []);
      assert.deepEqual(unavailable, ['stale'], 'told that the published keys were unavailable');
    } finally {
      served = { status: 200, body: JSON.stringify({ keys: published.map((key) => key.jwk) }) };
    }
  });
});
