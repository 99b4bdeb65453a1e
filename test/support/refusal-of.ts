import assert from 'node:assert/strict';
import { AppError } from '../../src/errors.js';

/**
 * How `work` was refused, as "status code" (`'409 key_already_registered'`), or `'accepted'` when it was not: one
 * string a rule's test compares, so that a refusal with another status or code fails it.
 *
 * @example
 * ```ts
 * assert.equal(await refusalOf(rotatePartnerKey(partner, body, deps)), '409 keys_published');
 * ```
 */
export async function refusalOf(work: Promise<unknown>): Promise<string> {
  try {
    await work;
  } catch (error) {
    assert.ok(error instanceof AppError, String(error));
    return `${error.status} ${error.code}`;
  }
  return 'accepted';
}
