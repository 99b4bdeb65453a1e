import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { hashPassword, verifyPassword } from './password-hasher.js';

describe('password hasher', () => {
  it('stores argon2id with the OWASP parameters, never the password', async () => {
    const hash = await hashPassword('correct horse battery staple');
    assert.match(hash, /^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
    assert.ok(!hash.includes('correct horse'));
  });

  it('accepts the right password and refuses a wrong one', async () => {
    const hash = await hashPassword('correct horse battery staple');
    assert.equal(await verifyPassword(hash, 'correct horse battery staple'), true);
    assert.equal(await verifyPassword(hash, 'correct horse battery stapler'), false);
  });

  it('refuses any password for an unknown partner, and a corrupt hash without throwing', async () => {
    assert.equal(await verifyPassword(undefined, 'anything'), false);
    assert.equal(await verifyPassword('not-a-hash', 'anything'), false);
  });
});
