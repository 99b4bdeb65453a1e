import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { AppError } from '../../errors.js';
import { requireParameters } from './require-parameters.js';

const refusal = (fn: () => unknown) => {
  try {
    fn();
  } catch (error) {
    assert.ok(error instanceof AppError);
    return { status: error.status, description: error.description };
  }
  assert.fail('expected a refusal');
};

describe('requireParameters', () => {
  it('returns the values when all are present', () => {
    const input: Record<string, unknown> = { a: 'x', b: 'y', c: 'unused' };
    assert.deepEqual(requireParameters(input, ['a', 'b']), { a: 'x', b: 'y' });
  });

  it('reports the first missing parameter in the given order, an empty value counting as omitted', () => {
    assert.deepEqual(refusal(() => requireParameters({ b: '' }, ['a', 'b'])), {
      status: 422,
      description: 'A required parameter a was omitted; repeat the request with correct data',
    });
    assert.equal(refusal(() => requireParameters({ a: 'x', b: '' }, ['a', 'b'])).description.includes(' b '), true);
  });

  it('refuses a parameter that is not a string as invalid', () => {
    assert.deepEqual(refusal(() => requireParameters({ a: ['x', 'y'] }, ['a'])), {
      status: 422,
      description: 'Parameter a has an invalid value; repeat the request with correct data',
    });
  });
});
