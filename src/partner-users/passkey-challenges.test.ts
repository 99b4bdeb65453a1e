import assert from 'node:assert/strict';
import { test } from 'node:test';
import { CHALLENGE_TTL_MS, createPasskeyChallenges } from './passkey-challenges.js';

const key = Buffer.alloc(32, 3);

test('when a challenge is answered within five minutes for the purpose it was given, then it is accepted', () => {
  let at = 1_800_000_000_000;
  const challenges = createPasskeyChallenges(key, () => at);
  const challenge = challenges.issue('register:inv_1');
  at += CHALLENGE_TTL_MS - 1;
  assert.equal(challenges.expiry(challenge, 'register:inv_1')?.getTime(), 1_800_000_000_000 + CHALLENGE_TTL_MS);
});

test('when a challenge is answered for another purpose, late, altered or under another master key, then it is refused', () => {
  let at = 1_800_000_000_000;
  const challenges = createPasskeyChallenges(key, () => at);
  const challenge = challenges.issue('register:inv_1');
  assert.equal(challenges.expiry(challenge, 'register:inv_2'), undefined);
  assert.equal(challenges.expiry(challenge, 'sign-in'), undefined);
  assert.equal(createPasskeyChallenges(Buffer.alloc(32, 4), () => at).expiry(challenge, 'register:inv_1'), undefined);
  const bytes = Buffer.from(challenge, 'base64url');
  bytes[20] = (bytes[20] ?? 0) ^ 1;
  assert.equal(challenges.expiry(bytes.toString('base64url'), 'register:inv_1'), undefined);
  assert.equal(challenges.expiry('short', 'register:inv_1'), undefined);
  at += CHALLENGE_TTL_MS;
  assert.equal(challenges.expiry(challenge, 'register:inv_1'), undefined);
});
