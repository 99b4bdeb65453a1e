import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { AppError } from '../../errors.js';
import { readClientCredentials, type ClientAuthenticationForm } from './read-client-credentials.js';
import { CLIENT_ASSERTION_TYPE } from './verify-client-assertion.js';

const basic = (user: string, password: string) => `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;

function refusal(form: ClientAuthenticationForm, authorization?: string): AppError {
  try {
    readClientCredentials(form, authorization);
  } catch (error) {
    assert.ok(error instanceof AppError);
    return error;
  }
  assert.fail('expected a refusal');
}

describe('readClientCredentials', () => {
  it('reads private_key_jwt, with the client_id when sent', () => {
    assert.deepEqual(readClientCredentials({ client_assertion_type: CLIENT_ASSERTION_TYPE, client_assertion: 'a.b.c' }, undefined), { method: 'private_key_jwt', assertion: 'a.b.c' });
    assert.deepEqual(readClientCredentials({ client_id: 'acme', client_assertion_type: CLIENT_ASSERTION_TYPE, client_assertion: 'a.b.c' }, undefined), {
      method: 'private_key_jwt',
      assertion: 'a.b.c',
      clientId: 'acme',
    });
  });

  it('reads client_secret_basic, form-urldecoding user and password (RFC 6749 section 2.3.1)', () => {
    assert.deepEqual(readClientCredentials({}, basic('ac%3Ame', 'p%C3%A4ss+word%3A1')), { method: 'client_secret_basic', login: 'ac:me', secret: 'päss word:1' });
    assert.deepEqual(readClientCredentials({ client_id: 'acme' }, basic('acme', 'secret')), { method: 'client_secret_basic', login: 'acme', secret: 'secret' });
  });

  it('reads client_secret_post', () => {
    assert.deepEqual(readClientCredentials({ client_id: 'acme', client_secret: 's' }, undefined), { method: 'client_secret_post', login: 'acme', secret: 's' });
  });

  it('refuses two methods at once as invalid_request', () => {
    const both = refusal({ client_id: 'acme', client_secret: 's', client_assertion_type: CLIENT_ASSERTION_TYPE, client_assertion: 'a.b.c' });
    assert.equal(both.extra.oauthError, 'invalid_request');
    assert.equal(both.extra.reason, 'multiple_client_authentications');
    assert.equal(refusal({ client_id: 'acme', client_secret: 's' }, basic('acme', 's')).extra.oauthError, 'invalid_request');
    assert.equal(refusal({ client_id: 'other' }, basic('acme', 's')).extra.oauthError, 'invalid_request');
  });

  it('refuses no authentication as invalid_client, and a malformed Basic header with the Basic challenge', () => {
    const none = refusal({ client_id: 'acme' });
    assert.equal(none.extra.oauthError, 'invalid_client');
    assert.equal(none.status, 401);
    const malformed = refusal({}, 'Basic !!!');
    assert.equal(malformed.extra.oauthError, 'invalid_client');
    assert.match(malformed.extra.headers?.['www-authenticate'] ?? '', /^Basic /);
    assert.equal(refusal({}, basic('acme', '%E0%A4%A')).extra.oauthError, 'invalid_client');
    assert.equal(refusal({}, 'Bearer abc').extra.oauthError, 'invalid_client');
  });

  it('refuses an assertion of another type or without its JWT, never echoing it', () => {
    const wrongType = refusal({ client_assertion_type: 'urn:other', client_assertion: 'secret.assertion.here' });
    assert.equal(wrongType.extra.oauthError, 'invalid_request');
    assert.ok(!wrongType.description.includes('secret.assertion.here'));
    assert.equal(refusal({ client_assertion_type: CLIENT_ASSERTION_TYPE }).extra.oauthError, 'invalid_request');
  });
});
