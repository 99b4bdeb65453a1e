import type { BankListChange, BankListEntry } from '@partner-gateway/contract/admin-bank-versions';
import { CURATED_BANK_FIELDS, curatedTextOf, type CuratedTextField } from '@partner-gateway/contract/bank-curated-fields';
import { errors } from '../errors.js';
import { diffBankLists } from './bank-list-diff.js';
import type { ListChange } from './merge-registry.js';

/**
 * A bank's curated fields as a file or an operator sets them: a field left out (undefined) is kept as it is; null
 * clears it. A file's row sets exactly the columns (CSV) or keys (JSON) it has.
 */
export type CuratedInput = { bic: string; name?: string } & { [K in CuratedTextField]?: string | null };

const change = (current: readonly BankListEntry[], next: BankListEntry[]): ListChange => ({ next, changes: diffBankLists(current, next) });

function curated(bank: BankListEntry, input: CuratedInput): BankListEntry {
  const set = CURATED_BANK_FIELDS.filter((field) => input[field] !== undefined).map((field) => [field, input[field]]);
  return { ...bank, ...Object.fromEntries(set) };
}

/** A bank the list did not hold, as an operator or a file gives it: curated fields only, no registry fact yet. */
export function freshBank(input: CuratedInput & { name: string }): BankListEntry {
  return { bic: input.bic, name: input.name, ...curatedTextOf(input), registryName: null, sbpParticipant: null };
}

/**
 * A JSON or CSV file merged into the list (the default import): a bank of the file already listed gets the curated
 * fields the file sets, in its place; a new one is added at the end, in the file's order. Nothing is removed and no
 * registry fact changes.
 *
 * @example
 * ```ts
 * mergeFile(current, [{ bic: '044525225', sbpMemberId: '100000000111' }]).changes; // one member-id change
 * ```
 */
export function mergeFile(current: readonly BankListEntry[], rows: ReadonlyArray<CuratedInput & { name: string }>): ListChange {
  const byBic = new Map(rows.map((row) => [row.bic, row]));
  const next = current.map((bank) => (byBic.has(bank.bic) ? curated(bank, byBic.get(bank.bic)!) : bank));
  const present = new Set(current.map((bank) => bank.bic));
  for (const row of rows) if (!present.has(row.bic)) next.push(freshBank(row));
  return change(current, next);
}

/**
 * A curated-fields file (mode=curate, the CSV round trip) applied to the list: each listed bank of the file gets
 * the curated fields the file sets, in its place; rows of BICs the list does not hold are returned as `unknown`
 * (in the file's order) and change nothing. Nothing is added, moved or removed, and no registry fact changes: new
 * banks come through the admission queue or an explicit add, never through a spreadsheet's stray row.
 *
 * @example
 * ```ts
 * curateFile(current, [{ bic: '044525225', name: 'Сбер' }, { bic: '049999999', name: 'Нет такого' }]).unknown; // ['049999999']
 * ```
 */
export function curateFile(current: readonly BankListEntry[], rows: ReadonlyArray<CuratedInput>): ListChange & { unknown: string[] } {
  const byBic = new Map(rows.map((row) => [row.bic, row]));
  const present = new Set(current.map((bank) => bank.bic));
  const next = current.map((bank) => (byBic.has(bank.bic) ? curated(bank, byBic.get(bank.bic)!) : bank));
  return { ...change(current, next), unknown: rows.filter((row) => !present.has(row.bic)).map((row) => row.bic) };
}

/**
 * The whole list replaced by `rows`, in their order (an explicitly confirmed action, never a default): banks left
 * out are removed; a bank that stays keeps its registry facts and the curated fields the rows do not set.
 */
export function replaceList(current: readonly BankListEntry[], rows: ReadonlyArray<CuratedInput & { name: string }>): ListChange {
  const byBic = new Map(current.map((bank) => [bank.bic, bank]));
  return change(current, rows.map((row) => (byBic.has(row.bic) ? curated(byBic.get(row.bic)!, row) : freshBank(row))));
}

/** One bank added at the end; 409 when its BIC is listed. */
export function addBank(current: readonly BankListEntry[], input: CuratedInput & { name: string }): ListChange {
  if (current.some((bank) => bank.bic === input.bic)) throw errors.bankExists(input.bic);
  return change(current, [...current, freshBank(input)]);
}

/** One bank removed; 404 when its BIC is not listed. */
export function removeBank(current: readonly BankListEntry[], bic: string): ListChange {
  if (!current.some((bank) => bank.bic === bic)) throw errors.bankNotFound(bic);
  return change(current, current.filter((bank) => bank.bic !== bic));
}

/**
 * One bank's curated fields edited and, with `position` (1-based; beyond the end means last), moved there.
 * 404 when its BIC is not listed.
 *
 * @example
 * ```ts
 * editBank(current, { bic: '044525225', position: 1 }); // Sberbank first, the others keep their order
 * ```
 */
export function editBank(current: readonly BankListEntry[], input: CuratedInput & { position?: number }): ListChange {
  const index = current.findIndex((bank) => bank.bic === input.bic);
  if (index < 0) throw errors.bankNotFound(input.bic);
  const edited = curated(current[index]!, input);
  const rest = current.filter((_, at) => at !== index);
  const target = input.position === undefined ? index : Math.min(Math.max(input.position, 1), current.length) - 1;
  return change(current, [...rest.slice(0, target), edited, ...rest.slice(target)]);
}

/** The list made exactly `list` again (a restore), registry facts and curated fields alike. */
export function restoreList(current: readonly BankListEntry[], list: readonly BankListEntry[]): ListChange {
  return change(current, list.map((bank) => ({ ...bank })));
}

/** Whether a change only moves banks (the history names it a reorder). */
export function onlyMoves(changes: readonly BankListChange[]): boolean {
  return changes.length > 0 && changes.every((entry) => entry.kind === 'changed' && entry.fields.every((field) => field.field === 'position'));
}
