import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { AppError } from '../../errors.js';
import { dpopProof, testKey } from '../../../test/support/oauth-client.js';
import { claimDpopProof, dpopReplayKey, readDpopHeader } from './claim-dpop-proof.js';

/** The replay store's contract (claim once), in memory. */
function memoryReplay() {
  const seen = new Set<string>();
  return { seen, claim: async (jti: string) => (seen.has(jti) ? false : (seen.add(jti), true)) };
}

const URL = 'https://gw.example/api/v1/oauth/token';

describe('claimDpopProof', () => {
  it('accepts a proof once, under a prefixed hash of its jti, and refuses its replay as dpop_proof_replayed', async () => {
    const replay = memoryReplay();
    const settings = { replay, maxAgeSeconds: 120, maxFutureSeconds: 30, now: () => Date.now() };
    const key = await testKey();
    const proof = await dpopProof(key, 'POST', URL, { claims: { jti: 'the-jti' } });
    const verified = await claimDpopProof(proof, { method: 'POST', url: URL }, settings);
    assert.ok(replay.seen.has(dpopReplayKey('the-jti')));
    assert.match(dpopReplayKey('the-jti'), /^dpop:[A-Za-z0-9_-]{43}$/);
    assert.equal(verified.jti, 'the-jti');
    await assert.rejects(claimDpopProof(proof, { method: 'POST', url: URL }, settings), (error: unknown) => error instanceof AppError && error.extra.reason === 'dpop_proof_replayed');
  });

  it('spends nothing for a proof that fails verification', async () => {
    const replay = memoryReplay();
    const key = await testKey();
    const proof = await dpopProof(key, 'GET', URL);
    await assert.rejects(claimDpopProof(proof, { method: 'POST', url: URL }, { replay, maxAgeSeconds: 120, maxFutureSeconds: 30, now: () => Date.now() }));
    assert.equal(replay.seen.size, 0);
  });
});

describe('readDpopHeader', () => {
  it('reads one proof and refuses two (RFC 9449 section 4.3)', () => {
    assert.equal(readDpopHeader(undefined), undefined);
    assert.equal(readDpopHeader(' a.b.c '), 'a.b.c');
    assert.throws(() => readDpopHeader('a.b.c, d.e.f'), (error: unknown) => error instanceof AppError && error.extra.oauthError === 'invalid_dpop_proof');
    assert.throws(() => readDpopHeader(['a.b.c', 'd.e.f']));
  });
});
