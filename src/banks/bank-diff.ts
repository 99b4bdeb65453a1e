import type { BankChanges } from '@partner-gateway/contract/admin-banks';
import type { Bank } from './bank.js';

/**
 * What making the registry `incoming` would change, by BIC: a BIC not there is added; one whose name,
 * English name or SBP member id differs is changed; in `replace` mode every BIC `incoming` leaves out is
 * removed (sorted). The one comparison behind replace, import and the import preview.
 *
 * @example
 * ```ts
 * diffBanks([{ bic: '044525225', name: 'Сбер' }], [{ bic: '044525225', name: 'Сбербанк' }], 'replace');
 * // { added: [], changed: ['044525225'], removed: [] }
 * ```
 */
export function diffBanks(current: readonly Bank[], incoming: readonly Bank[], mode: 'replace' | 'merge'): BankChanges {
  const existing = new Map(current.map((bank) => [bank.bic, bank]));
  const changes: BankChanges = { added: [], changed: [], removed: [] };
  for (const bank of incoming) {
    const before = existing.get(bank.bic);
    if (!before) changes.added.push(bank.bic);
    else if (!sameBankContent(before, bank)) changes.changed.push(bank.bic);
  }
  if (mode === 'replace') {
    const keep = new Set(incoming.map((bank) => bank.bic));
    changes.removed = [...existing.keys()].filter((bic) => !keep.has(bic)).sort();
  }
  return changes;
}

/** Whether two entries of one BIC say the same (an absent English name or member id equals null). */
export function sameBankContent(a: Bank, b: Bank): boolean {
  return a.name === b.name && (a.nameEn ?? null) === (b.nameEn ?? null) && (a.sbpMemberId ?? null) === (b.sbpMemberId ?? null);
}
