import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { fillPath, withQuery } from './admin-endpoint.js';

describe('an admin endpoint call', () => {
  it('when a path has parameters, then each is filled in encoded, so an id cannot add a segment or a query', () => {
    assert.equal(fillPath('/admin/v1/partners/:login/webhooks/:id', { login: 'a/b?c', id: 7 }), '/admin/v1/partners/a%2Fb%3Fc/webhooks/7');
  });

  it('when a parameter has no value, then it throws naming it rather than sending ":login"', () => {
    assert.throws(() => fillPath('/admin/v1/partners/:login', {}), /no value for :login/);
  });

  it('when a query has empty values, then they are left out, and numbers and booleans are written as text', () => {
    assert.equal(withQuery('/admin/v1/audit', { partner: 'acme', reason: '', cursor: undefined, limit: 50, dryRun: true, to: null }), '/admin/v1/audit?partner=acme&limit=50&dryRun=true');
    assert.equal(withQuery('/admin/v1/audit', {}), '/admin/v1/audit');
  });
});
