import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { otherSchemaVanished } from './other-schema-vanished.js';

describe('otherSchemaVanished', () => {
  it('when another schema, or a table of another schema, vanished during the migrator\'s look around, then the run may be tried again', () => {
    assert.equal(otherSchemaVanished(new Error('schema "suite_1a2b" does not exist'), 'public'), true);
    // A clean-clone CI run failed a gateway's start on this one: another suite's retention job dropped its legacy table.
    assert.equal(otherSchemaVanished(new Error('relation "burst_3a6f9bc482.audit_log_legacy" does not exist'), 'oauth_0a1b2c3d4e'), true);
  });

  it('when our own schema or table is missing, or the relation is unqualified, or the error is another, then it is not retried', () => {
    assert.equal(otherSchemaVanished(new Error('schema "oauth_0a1b" does not exist'), 'oauth_0a1b'), false);
    assert.equal(otherSchemaVanished(new Error('relation "oauth_0a1b.partners" does not exist'), 'oauth_0a1b'), false);
    assert.equal(otherSchemaVanished(new Error('relation "partners" does not exist'), 'public'), false);
    assert.equal(otherSchemaVanished(new Error('deadlock detected'), 'public'), false);
    assert.equal(otherSchemaVanished('schema "x" does not exist', 'public'), false);
  });
});
