import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { readBanks, readOAuthToken, readSession } from './read-answers.js';

// The compatibility policy (README, "Compatibility"): a later gateway may add fields to any answer.
describe('answers from a later gateway', () => {
  it('when a login answer carries fields the client does not know, reads the tokens and ignores the rest', () => {
    const session = readSession({ access_token: 'eyJ.a.b', token_type: 'bearer', expires_in: 900, refresh_token: 'r', refresh_expires_in: 60, scope: 'banks', issued_token_type: 'x' }, 0, 'login');
    assert.deepEqual(session, { token: { accessToken: 'eyJ.a.b', tokenType: 'Bearer', expiresIn: 900, expiresAt: new Date(900_000) }, refresh: { value: 'r', expiresAt: 60_000 } });
  });

  it('when a token endpoint answer carries more fields, reads the token', () => {
    assert.equal(readOAuthToken({ access_token: 'eyJ.a.b', token_type: 'DPoP', expires_in: 60, scope: 'banks', extra: { nested: true } }, 0).token.tokenType, 'DPoP');
  });

  it('when banks carry more fields, and the answer too, keeps each bank\'s name and BIC only', () => {
    const banks = readBanks({ banks: [{ name: 'Сбербанк', bic: '044525225', nameEn: 'Sberbank', logo: 'https://x' }], page: 1, updatedAt: '2027-01-01' });
    assert.deepEqual(banks, [{ name: 'Сбербанк', bic: '044525225' }]);
  });
});
