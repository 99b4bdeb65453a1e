import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { AppError } from '../errors.js';
import { partnerFixture } from '../../test/support/partner-fixture.js';
import { argon2Verifications, hashPassword } from './password-hasher.js';
import { createPasswordVerifier } from './password-verifier.js';

describe('password verifier', () => {
  it('answers 503 with Retry-After once the bounded queue is full, rather than queueing without limit', async () => {
    const verifier = createPasswordVerifier({ concurrency: 1, maxQueue: 1, rememberMs: 0, now: Date.now });
    const partner = partnerFixture({ passwordHash: await hashPassword('the password 1') });
    const results = await Promise.allSettled([1, 2, 3, 4].map(() => verifier.verify(partner, 'the password 1')));
    assert.deepEqual(results.map((r) => r.status), ['fulfilled', 'fulfilled', 'rejected', 'rejected']);
    const refusal = (results[2] as PromiseRejectedResult).reason as AppError;
    assert.equal(refusal.status, 503);
    assert.equal(refusal.description, 'Service is busy; repeat the request later');
    assert.equal(refusal.extra.headers?.['retry-after'], '1');
  });

  it('remembers a success only when asked, and only for the same password and hash', async () => {
    const verifier = createPasswordVerifier({ concurrency: 2, maxQueue: 10, rememberMs: 60_000, now: Date.now });
    const partner = partnerFixture({ passwordHash: await hashPassword('the password 2') });
    const count = async (work: () => Promise<boolean>) => {
      const before = argon2Verifications();
      const result = await work();
      return { result, hashed: argon2Verifications() - before };
    };
    assert.deepEqual(await count(() => verifier.verify(partner, 'the password 2', { remember: true })), { result: true, hashed: 1 });
    assert.deepEqual(await count(() => verifier.verify(partner, 'the password 2', { remember: true })), { result: true, hashed: 0 });
    assert.deepEqual(await count(() => verifier.verify(partner, 'the password 2')), { result: true, hashed: 1 }, 'login always hashes');
    assert.deepEqual(await count(() => verifier.verify(partner, 'another password', { remember: true })), { result: false, hashed: 1 });
    assert.deepEqual(await count(() => verifier.verify(partner, 'another password', { remember: true })), { result: false, hashed: 1 }, 'failures are never remembered');
    const rehashed = { ...partner, passwordHash: await hashPassword('the password 2') };
    assert.deepEqual(await count(() => verifier.verify(rehashed, 'the password 2', { remember: true })), { result: true, hashed: 1 }, 'a new hash forgets the memo');
  });
});
