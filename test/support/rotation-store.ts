import assert from 'node:assert/strict';
import type { Partner } from '../../src/partners/partner.js';
import type { PartnerChanges } from '../../src/partners/partner-repository.js';

/**
 * The partner store a credential rotation writes through, holding one partner: it checks that every update is a
 * compare-and-set on the partner the rotation read, keeps the changes asked (`writes`), and with `overtaken`
 * answers as a row changed meanwhile would (nothing written).
 *
 * @example
 * ```ts
 * const deps = rotationStore(partner, () => NOW);
 * await rotatePartnerKey(partner, body, deps);
 * deps.writes; // [{ jwks: [...] }]
 * ```
 */
export function rotationStore(partner: Partner, now: () => number, overtaken = false) {
  const writes: PartnerChanges[] = [];
  return {
    writes,
    partners: {
      async update(_login: string, changes: PartnerChanges, options?: { ifUpdatedAt?: Date }) {
        assert.equal(options?.ifUpdatedAt, partner.updatedAt, 'every rotation is a compare-and-set on the partner it read');
        if (overtaken) return undefined;
        writes.push(changes);
        return { ...partner, ...changes } as Partner;
      },
    },
    now,
  };
}
