import type { BankListChange, BankListEntry } from '@partner-gateway/contract/admin-bank-versions';
import { curatedTextOf } from '@partner-gateway/contract/bank-curated-fields';
import { diffBankLists } from './bank-list-diff.js';

/**
 * One credit organization's head office as a registry (the Bank of Russia's ED807 directory) lists it: its
 * registry facts only. `sbpParticipant` is true for an active head office with an SBP service code (`Srvcs` 4, 5
 * or 6) and no restriction.
 */
export interface RegistryEntry {
  bic: string;
  registryName: string;
  /** The directory's English name: the Latin name a newly added bank starts with (a curated field after that). */
  nameEn: string | null;
  sbpParticipant: boolean;
}

/** A next list and every change that leads to it. */
export interface ListChange {
  next: BankListEntry[];
  changes: BankListChange[];
}

/**
 * Merges a registry into the list, the rule every registry import and sync follows:
 * - a bank of the list the registry lists as an SBP participant stays where it is, with its registry facts
 *   (`registryName`, `sbpParticipant`) updated and its curated fields (display name, Latin name, NSPK member id,
 *   position) untouched;
 * - a bank of the list the registry does not list as an SBP participant (it left SBP, or the registry no longer
 *   has it) is removed;
 * - an SBP head office the list lacks is added at the end, in the registry's order, its display name the registry
 *   name, its Latin name the registry's English name, its NSPK member id unknown (null), when `publishNow` says so;
 *   otherwise it is left out (it waits in the admission queue: src/banks/admission/).
 * Pure: the same inputs give the same list and changes, so a preview is exactly what applying does.
 *
 * @example
 * ```ts
 * const { next, changes } = mergeRegistry(current, parseEd807Registry(bytes).entries);
 * // changes: [{ bic: '044525225', name: 'Сбербанк', kind: 'changed', fields: [{ field: 'registryName', old: null, new: 'ПАО Сбербанк' }, ...] }, ...]
 * ```
 */
export function mergeRegistry(current: readonly BankListEntry[], registry: readonly RegistryEntry[], publishNow: (entry: RegistryEntry) => boolean = () => true): ListChange {
  const listed = new Map(registry.map((entry) => [entry.bic, entry]));
  const next: BankListEntry[] = [];
  for (const bank of current) {
    const entry = listed.get(bank.bic);
    if (!entry?.sbpParticipant) continue;
    next.push({ ...bank, registryName: entry.registryName, sbpParticipant: true });
  }
  const present = new Set(current.map((bank) => bank.bic));
  for (const entry of registry) {
    if (!entry.sbpParticipant || present.has(entry.bic) || !publishNow(entry)) continue;
    present.add(entry.bic);
    next.push({ bic: entry.bic, name: entry.registryName, ...curatedTextOf({ nameEn: entry.nameEn }), registryName: entry.registryName, sbpParticipant: true });
  }
  return { next, changes: diffBankLists(current, next) };
}
