import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { AppError, texts } from '../../errors.js';
import { partnerFixture as partner } from '../../../test/support/partner-fixture.js';
import { requireAuthMethod } from './require-auth-method.js';

describe('requireAuthMethod', () => {
  it('when a partner uses a method its authMethods include, then it is let through', () => {
    requireAuthMethod(partner({ authMethods: ['password'] }), 'password');
    requireAuthMethod(partner({ authMethods: ['private_key_jwt'] }), 'private_key_jwt');
  });
  it("when a key-only partner sends its password, then it gets the seed's 401, reason password_not_allowed", () => {
    assert.throws(
      () => requireAuthMethod(partner({ authMethods: ['private_key_jwt'] }), 'password'),
      (error: unknown) => error instanceof AppError && error.status === 401 && error.description === texts.unauthorized && error.extra.reason === 'password_not_allowed',
    );
  });
  it("when a password-only partner signs an assertion, then it is refused, reason private_key_jwt_not_allowed", () => {
    assert.throws(
      () => requireAuthMethod(partner({ authMethods: ['password'] }), 'private_key_jwt'),
      (error: unknown) => error instanceof AppError && error.extra.reason === 'private_key_jwt_not_allowed',
    );
  });
});
