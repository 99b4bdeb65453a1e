import { CURATED_TEXT_FIELD_NAMES } from '@partner-gateway/contract/bank-curated-fields';
import type { BankField, BankFieldChange, BankFieldSource, BankListChange, BankListEntry } from '@partner-gateway/contract/admin-bank-versions';

/** The curated fields a change lists first after the names, in this order; any other declared one follows them. */
const LEADING = ['sbpMemberId', 'nameEn'] as const;

/** The fields compared besides the position, in the order a change lists them. */
const FIELDS = [
  'name',
  'registryName',
  ...LEADING,
  ...CURATED_TEXT_FIELD_NAMES.filter((field) => !(LEADING as readonly string[]).includes(field)),
  'sbpParticipant',
  'participantsListed',
] as const satisfies readonly BankField[];

/**
 * Every change that turns the list `current` into `next`, by bank and field, old -> new: banks added (in `next`'s
 * order, with every field they arrive with and their position), banks changed (only the fields that differ), then
 * banks removed (in `current`'s order, with every field they had). A position change is reported only for banks
 * that moved relative to the others: the fewest banks whose moving explains the new order (the complement of a
 * longest run kept in order), so moving one bank from 145th to 1st is one change, 145 -> 1, and the 144 banks it
 * passed are not reported as shifted. Positions are 1-based.
 *
 * @example
 * ```ts
 * diffBankLists([sber, vtb], [vtb, { ...sber, name: 'Сбер' }]);
 * // [{ bic: sber.bic, name: 'Сбер', kind: 'changed', fields: [{ field: 'name', old: 'Сбербанк', new: 'Сбер' }, { field: 'position', old: 1, new: 2 }] }]
 * ```
 */
export function diffBankLists(current: readonly BankListEntry[], next: readonly BankListEntry[]): BankListChange[] {
  const before = new Map(current.map((bank, index) => [bank.bic, { bank, index }]));
  const inNext = new Set(next.map((bank) => bank.bic));
  const stayers = next.filter((bank) => before.has(bank.bic));
  const inOrder = longestOrderedRun(stayers.map((bank) => before.get(bank.bic)!.index));
  const kept = new Set([...inOrder].map((position) => stayers[position]!.bic));
  const changes: BankListChange[] = [];
  next.forEach((bank, index) => {
    const old = before.get(bank.bic);
    if (!old) {
      changes.push({ bic: bank.bic, name: bank.name, kind: 'added', fields: [...presentFields(bank, 'new'), { field: 'position', old: null, new: index + 1 }] });
      return;
    }
    const fields: BankFieldChange[] = FIELDS.filter((field) => (old.bank[field] ?? null) !== (bank[field] ?? null)).map((field) => ({
      field,
      old: old.bank[field] ?? null,
      new: bank[field] ?? null,
      ...sourceOf(bank, field),
    }));
    if (!kept.has(bank.bic)) fields.push({ field: 'position', old: old.index + 1, new: index + 1 });
    if (fields.length > 0) changes.push({ bic: bank.bic, name: bank.name, kind: 'changed', fields });
  });
  current.forEach((bank, index) => {
    if (inNext.has(bank.bic)) return;
    changes.push({ bic: bank.bic, name: bank.name, kind: 'removed', fields: [...presentFields(bank, 'old'), { field: 'position', old: index + 1, new: null }] });
  });
  return changes;
}

/** The BICs added, changed and removed: the short summary beside the full changes. */
export function summarizeChanges(changes: readonly BankListChange[]): { added: string[]; changed: string[]; removed: string[] } {
  const of = (kind: BankListChange['kind']) => changes.filter((change) => change.kind === kind).map((change) => change.bic);
  return { added: of('added'), changed: of('changed'), removed: of('removed') };
}

function presentFields(bank: BankListEntry, side: 'old' | 'new'): BankFieldChange[] {
  return FIELDS.filter((field) => (bank[field] ?? null) !== null).map((field) =>
    side === 'new' ? { field, old: null, new: bank[field] ?? null, ...sourceOf(bank, field) } : { field, old: bank[field] ?? null, new: null },
  );
}

/** `{ source }` of a field whose source the bank records, for its change (nothing otherwise). */
function sourceOf(bank: BankListEntry, field: (typeof FIELDS)[number]): { source?: BankFieldSource } {
  const source = field === 'registryName' ? undefined : bank.sources?.[field];
  return source ? { source } : {};
}

/** Indexes (into `values`) of a longest strictly increasing subsequence: O(n log n) patience sorting. */
function longestOrderedRun(values: readonly number[]): Set<number> {
  const tails: number[] = [];
  const previous: number[] = new Array(values.length).fill(-1);
  values.forEach((value, index) => {
    let low = 0;
    let high = tails.length;
    while (low < high) {
      const middle = (low + high) >> 1;
      if (values[tails[middle]!]! < value) low = middle + 1;
      else high = middle;
    }
    if (low > 0) previous[index] = tails[low - 1]!;
    tails[low] = index;
  });
  const run = new Set<number>();
  for (let index = tails.at(-1) ?? -1; index !== -1; index = previous[index]!) run.add(index);
  return run;
}
