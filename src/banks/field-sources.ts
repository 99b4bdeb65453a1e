import type { ActorRef } from '@partner-gateway/contract/admin-approvals';
import {
  SOURCED_BANK_FIELDS,
  type BankFieldOrigin,
  type BankFieldSource,
  type BankFieldSources,
  type BankListEntry,
  type SourcedBankField,
} from '@partner-gateway/contract/admin-bank-versions';
import { diffBankLists } from './bank-list-diff.js';
import type { ListChange } from './merge-registry.js';

/** A change's list builder (the same shape as BankListService's ListBuilder, without importing it: no cycle). */
type Builder = (current: BankListEntry[]) => ListChange;

/** The source a change gives the fields it sets. */
export function fieldSource(source: BankFieldOrigin, by: ActorRef, at: Date = new Date()): BankFieldSource {
  return { source, by, at: at.toISOString() };
}

/** The source recorded for `field` of `bank`, if any. */
export function sourceOf(bank: Pick<BankListEntry, 'sources'>, field: SourcedBankField): BankFieldSource | undefined {
  return bank.sources?.[field];
}

/** Whether an operator set `field` of `bank` (a participants import or sync then never changes it). */
export function operatorSet(bank: Pick<BankListEntry, 'sources'>, field: SourcedBankField): boolean {
  return sourceOf(bank, field)?.source === 'operator';
}

const value = (bank: BankListEntry | undefined, field: SourcedBankField) => (bank ? (bank[field] ?? null) : null);

/**
 * `next` with the source of every field the change set recorded as `stamp`: a field whose value differs from the
 * list before (a new bank: every field it arrives with) gets `stamp`, unless the builder gave it a source of its
 * own (an admitted bank's name an operator chose); a field that did not change keeps its source. Sources are
 * written in one order (SOURCED_BANK_FIELDS), so that equal sources compare equal.
 *
 * @example
 * ```ts
 * stampSources(current, editBank(current, { bic, sbpMemberId: '100000000111' }).next, fieldSource('operator', actor));
 * // that bank's sources.sbpMemberId: { source: 'operator', by: actor, at: '2026-…' }
 * ```
 */
export function stampSources(current: readonly BankListEntry[], next: readonly BankListEntry[], stamp: BankFieldSource): BankListEntry[] {
  const before = new Map(current.map((bank) => [bank.bic, bank]));
  return next.map((bank) => {
    const old = before.get(bank.bic);
    const sources: BankFieldSources = {};
    for (const field of SOURCED_BANK_FIELDS) {
      const own = bank.sources?.[field];
      const had = old?.sources?.[field];
      const changed = old ? value(old, field) !== value(bank, field) : value(bank, field) !== null;
      const given = own !== undefined && own !== had;
      const source = given ? own : changed ? stamp : had;
      if (source) sources[field] = source;
    }
    const { sources: _dropped, ...rest } = bank;
    return Object.keys(sources).length > 0 ? { ...rest, sources } : rest;
  });
}

/**
 * A builder whose list records the sources of what it changed (stampSources), its changes diffed again so that
 * every field change names its new source. Previewing and applying the same stamped builder give the same list.
 */
export function withSources(build: Builder, stamp: BankFieldSource): Builder {
  return (current) => {
    const change = build(current);
    if (change.changes.length === 0) return change;
    const next = stampSources(current, change.next, stamp);
    return { next, changes: diffBankLists(current, next) };
  };
}
