import type { ErrorDetail } from '../../errors.js';

/**
 * What keeps a registry bank out of the published list: one BIC (`bic`), or a name pattern (`name`) that is one or
 * more whole words found, in that order, in the bank's registry name. Words are compared case-insensitively and
 * nothing else is interpreted (no regular expression reaches the matcher), so a rule costs linear time whatever
 * an operator writes: `НКО` excludes `ООО НКО "ЮМани"` and leaves `ООО КБ "СИНКО-БАНК"` a bank.
 */
export type ExclusionKind = 'bic' | 'name';

export interface ExclusionRuleSpec {
  kind: ExclusionKind;
  value: string;
  reason: string;
}

/** The most rules the gateway keeps, BICs included, and the longest pattern and reason. */
export const MAX_EXCLUSION_RULES = 1000;
export const MAX_PATTERN_LENGTH = 100;
export const MAX_PATTERN_WORDS = 8;
export const MAX_REASON_LENGTH = 500;

/**
 * The rules a new gateway starts with (migration 0031 writes them; an operator may remove them): non-bank credit
 * organisations (НКО, and its settlement and payment kinds РНКО and ПНКО), which a consumer rarely holds an
 * account at, and the Interstate Bank, which settles between CIS central banks.
 */
export const DEFAULT_EXCLUSION_RULES: readonly ExclusionRuleSpec[] = [
  { kind: 'name', value: 'НКО', reason: 'non-bank credit organisation (НКО): not a bank a consumer is paid into' },
  { kind: 'name', value: 'РНКО', reason: 'non-bank settlement credit organisation (РНКО): not a bank a consumer is paid into' },
  { kind: 'name', value: 'ПНКО', reason: 'non-bank payment credit organisation (ПНКО): not a bank a consumer is paid into' },
  { kind: 'name', value: 'Межгосударственный банк', reason: 'the Interstate Bank settles between CIS central banks: no consumer accounts' },
];

/** Letters and digits: what a word of a name is made of (`СИНКО-БАНК` is two words, `НКО "ЮМани"` two). */
const WORD = /[\p{L}\p{N}]+/gu;
const CONTROL = /[\u0000-\u001f\u007f]/;

/** A name's words, upper-cased (`Ё` kept as it is). */
export function wordsOf(name: string): string[] {
  return (name.match(WORD) ?? []).map((word) => word.toUpperCase());
}

/**
 * The first rule that excludes this registry bank, or undefined.
 *
 * @example
 * ```ts
 * matchingRule({ bic: '044525444', registryName: 'ООО НКО "ЮМани"' }, rules)?.value; // 'НКО'
 * ```
 */
export function matchingRule<R extends { kind: ExclusionKind; value: string }>(bank: { bic: string; registryName: string }, rules: readonly R[]): R | undefined {
  let words: string[] | undefined;
  for (const rule of rules) {
    if (rule.kind === 'bic') {
      if (rule.value === bank.bic) return rule;
      continue;
    }
    words ??= wordsOf(bank.registryName);
    if (containsRun(words, wordsOf(rule.value))) return rule;
  }
  return undefined;
}

function containsRun(words: readonly string[], run: readonly string[]): boolean {
  if (run.length === 0) return false;
  for (let start = 0; start + run.length <= words.length; start++) {
    if (run.every((word, offset) => words[start + offset] === word)) return true;
  }
  return false;
}

/** A name pattern's problems (empty when it can be a rule): 1 to 8 words, at most 100 characters, no control characters. */
export function patternProblems(pattern: string, field = 'value'): ErrorDetail[] {
  const trimmed = pattern.trim();
  if (trimmed.length === 0 || trimmed.length > MAX_PATTERN_LENGTH) return [{ field, message: `must be 1 to ${MAX_PATTERN_LENGTH} characters` }];
  if (CONTROL.test(trimmed)) return [{ field, message: 'must not contain control characters' }];
  const words = wordsOf(trimmed).length;
  if (words === 0 || words > MAX_PATTERN_WORDS) return [{ field, message: `must hold 1 to ${MAX_PATTERN_WORDS} words (letters or digits); they match whole words of the registry name, in order` }];
  return [];
}
