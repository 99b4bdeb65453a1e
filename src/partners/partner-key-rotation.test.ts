import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { exportJWK, generateKeyPair } from 'jose';
import { refusalOf } from '../../test/support/refusal-of.js';
import { rotationStore } from '../../test/support/rotation-store.js';
import type { Partner } from './partner.js';
import { rotatePartnerKey } from './partner-key-rotation.js';
import { liveKeys, validatePartnerJwks, type PartnerKey } from './partner-keys.js';

const NOW = Date.parse('2026-11-28T12:00:00Z');
const HOUR = 3600_000;

async function publicJwk(kid: string) {
  const { publicKey } = await generateKeyPair('ES256');
  return { ...(await exportJWK(publicKey)), kid };
}

async function registered(kid: string, expiresAt?: number): Promise<PartnerKey> {
  const [key] = await validatePartnerJwks([await publicJwk(kid)]);
  return expiresAt === undefined ? key! : { ...key!, expiresAt: new Date(expiresAt).toISOString() };
}

const store = (partner: Partner, overtaken = false) => rotationStore(partner, () => NOW, overtaken);

const partnerWith = (jwks: PartnerKey[] | null, jwksUri: string | null = null) => ({ login: 'acme', jwks, jwksUri, updatedAt: new Date(NOW - HOUR) }) as Partner;


describe('rotatePartnerKey', () => {
  it('when a key is rotated, then the older keys end with the overlap window and the new one has no end', async () => {
    const partner = partnerWith([await registered('old')]);
    const rotation = await rotatePartnerKey(partner, { key: await publicJwk('new'), overlapSeconds: 3600 }, store(partner));
    assert.deepEqual(rotation.after.map((key) => [key.kid, key.expiresAt]), [['old', new Date(NOW + HOUR).toISOString()], ['new', undefined]]);
    assert.equal(rotation.retireAt, new Date(NOW + HOUR).toISOString());
  });

  it('when no overlap is given, then the older keys keep working for 24 hours', async () => {
    const partner = partnerWith([await registered('old')]);
    const rotation = await rotatePartnerKey(partner, { key: await publicJwk('new') }, store(partner));
    assert.equal(rotation.after[0]!.expiresAt, new Date(NOW + 24 * HOUR).toISOString());
  });

  it('when a key already ends sooner than the new window, then it keeps its end: a rotation never extends a key', async () => {
    const partner = partnerWith([await registered('soon', NOW + 60_000), await registered('current')]);
    const rotation = await rotatePartnerKey(partner, { key: await publicJwk('new'), overlapSeconds: 7 * 24 * 3600 }, store(partner));
    assert.equal(rotation.after.find((key) => key.kid === 'soon')!.expiresAt, new Date(NOW + 60_000).toISOString());
    assert.equal(rotation.after.find((key) => key.kid === 'current')!.expiresAt, new Date(NOW + 7 * 24 * HOUR).toISOString());
  });

  it('when a key has already ended, then the rotation drops it', async () => {
    const partner = partnerWith([await registered('ended', NOW - 1), await registered('current')]);
    const rotation = await rotatePartnerKey(partner, { key: await publicJwk('new') }, store(partner));
    assert.deepEqual(rotation.after.map((key) => key.kid), ['current', 'new']);
  });

  it('when the keys are published at a jwksUri, then the rotation is refused 409 and nothing is written', async () => {
    const partner = partnerWith(null, 'https://acme.example/jwks.json');
    const deps = store(partner);
    assert.equal(await refusalOf(rotatePartnerKey(partner, { key: await publicJwk('new') }, deps)), '409 keys_published');
    assert.equal(deps.writes.length, 0);
  });

  it('when the new key is already registered by kid, then 409', async () => {
    const partner = partnerWith([await registered('same')]);
    assert.equal(await refusalOf(rotatePartnerKey(partner, { key: await publicJwk('same') }, store(partner))), '409 key_already_registered');
  });

  it('when 20 keys are live, then a 21st is refused 422', async () => {
    const keys = await Promise.all(Array.from({ length: 20 }, (_, index) => registered(`k${index}`)));
    const partner = partnerWith(keys);
    assert.equal(await refusalOf(rotatePartnerKey(partner, { key: await publicJwk('k20') }, store(partner))), '422 validation_failed');
  });

  it('when another change overtook the rotation, then it is refused 409 keys_changed_meanwhile', async () => {
    const partner = partnerWith([await registered('old')]);
    assert.equal(await refusalOf(rotatePartnerKey(partner, { key: await publicJwk('new') }, store(partner, true))), '409 keys_changed_meanwhile');
  });
});

describe('liveKeys', () => {
  it('when a key has an end, then it is live strictly before it and not from it on', async () => {
    const keys = [await registered('ending', NOW), await registered('lasting')];
    assert.deepEqual(liveKeys(keys, NOW - 1).map((key) => key.kid), ['ending', 'lasting']);
    assert.deepEqual(liveKeys(keys, NOW).map((key) => key.kid), ['lasting']);
    assert.deepEqual(liveKeys(null, NOW), []);
  });
});
