import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { fillPath, undeclaredControls, withQuery } from './admin-endpoint.js';

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

describe('the controls an admin endpoint declares', () => {
  const change = { method: 'POST', path: '/admin/v1/x', operationId: 'changeX', tags: [], summary: 'x', status: 200, answer: {}, permission: 'partners.write', send: () => ({}) } as const;

  it('when a change declares no audit action, then it cannot be registered', () => {
    assert.match(undeclaredControls(change) ?? '', /changeX changes data but declares no audit action/);
  });

  it('when a change is neither checked nor says why not, then it cannot be registered; either one will do', () => {
    assert.match(undeclaredControls({ ...change, audit: 'partner.create' }) ?? '', /neither checked \(maker-checker\) nor says why not/);
    assert.equal(undeclaredControls({ ...change, audit: 'partner.update', checked: 'partner.update' }), undefined);
    assert.equal(undeclaredControls({ ...change, audit: 'partner.create', uncheckedBecause: 'a reason' }), undefined);
  });

  it('when an endpoint only reads, then it needs neither', () => {
    assert.equal(undeclaredControls({ ...change, method: 'GET' }), undefined);
  });
});
