import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { errors, texts } from './errors.js';
import { projectFile } from './project-root.js';

describe('error catalogue', () => {
  it("keeps the interface specification's texts word for word", () => {
    assert.equal(texts.unauthorized, 'User failed authorization; access to the resource is restricted');
    assert.equal(texts.blocked, 'Access to the system is blocked; contact the account manager');
    assert.equal(texts.ipNotAllowed, 'Access from this IP address is blocked; contact the account manager');
    assert.equal(texts.rewardTypeUnavailable, 'This reward type is not available to this partner; contact the account manager');
    assert.equal(errors.parameterMissing('partnerName').description, 'A required parameter partnerName was omitted; repeat the request with correct data');
    assert.equal(texts.notEncrypted, 'Parameter partnerPassword is expected in encrypted form');
    assert.equal(texts.internal, 'Service temporarily unavailable; repeat the operation later');
  });

  it('documents every error a partner can receive, with its exact text, in docs/integration.md and docs/api.md', () => {
    const partnerFacing = [
      texts.unauthorized,
      texts.blocked,
      texts.ipNotAllowed,
      texts.rewardTypeUnavailable,
      errors.parameterMissing('<name>').description,
      texts.notEncrypted,
      errors.parameterInvalid('<name>').description,
      errors.malformedBody().description,
      errors.payloadTooLarge().description,
      errors.unsupportedMediaType('application/json').description,
      errors.throttled(60).description,
      errors.busy().description,
      errors.shuttingDown().description,
      texts.internal,
    ];
    for (const file of ['docs/integration.md', 'docs/api.md']) {
      const text = readFileSync(projectFile(file), 'utf8');
      for (const description of partnerFacing) assert.ok(text.includes(`\`${description}\``), `${file}: ${description}`);
    }
  });
});
