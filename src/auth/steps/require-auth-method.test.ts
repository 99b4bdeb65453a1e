import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { AppError, texts } from '../../errors.js';
import { partnerFixture } from '../../../test/support/partner-fixture.js';
import { requireAuthMethod } from './require-auth-method.js';

describe('requireAuthMethod', () => {
  it('lets a partner use a method its authMethods include', () => {
    requireAuthMethod(partnerFixture({ authMethods: ['password'] }), 'password');
    requireAuthMethod(partnerFixture({ authMethods: ['private_key_jwt'] }), 'private_key_jwt');
  });

  it("refuses a key-only partner's password with the seed's 401, reason password_not_allowed", () => {
    assert.throws(
      () => requireAuthMethod(partnerFixture({ authMethods: ['private_key_jwt'] }), 'password'),
      (error: unknown) => error instanceof AppError && error.status === 401 && error.description === texts.unauthorized && error.extra.reason === 'password_not_allowed',
    );
  });

  it("refuses a password-only partner's key, reason private_key_jwt_not_allowed", () => {
    assert.throws(
      () => requireAuthMethod(partnerFixture({ authMethods: ['password'] }), 'private_key_jwt'),
      (error: unknown) => error instanceof AppError && error.extra.reason === 'private_key_jwt_not_allowed',
    );
  });
});
