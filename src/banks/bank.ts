import { CURATED_TEXT_FIELD_NAMES, CURATED_TEXT_FIELDS, type CuratedTextField } from '@partner-gateway/contract/bank-curated-fields';
import { BANK_NAME_MAX_LENGTH, BIC_PROBLEM, BIC_REGEXP } from '@partner-gateway/contract/patterns';
import { MAX_LISTED_PROBLEMS, type ErrorDetail } from '../errors.js';

/** A bank that can receive SBP business-to-consumer transfers: its BIC, name and optional curated fields (CURATED_TEXT_FIELDS). */
export type Bank = {
  /** Bank of Russia BIC: nine digits, starting with 04; always a string. */
  bic: string;
  name: string;
} & { [K in CuratedTextField]?: string | null };

/** Russian BICs are nine digits and start with the country code 04 (the contract's BIC_PATTERN). */
const BIC_PATTERN = BIC_REGEXP;
const MAX_NAME_LENGTH = BANK_NAME_MAX_LENGTH;
/** A number as a spreadsheet shows a long one: 1E+11, 1,00E+11, 4.45E+08. */
const SCIENTIFIC = /^\d(?:[.,]\d+)?E\+?\d+$/i;
/** No bank's name has a control character, and PostgreSQL text cannot hold U+0000 at all. */
const CONTROL_CHARACTER = /[\u0000-\u001f\u007f]/;

/**
 * Checks one bank entry as received (from JSON, CSV or XML) and returns it normalized (trimmed), or the list
 * of what is wrong with it; `where` prefixes every message's field (`banks[3].bic`).
 */
export function validateBank(input: unknown, where: string): { bank: Bank } | { problems: ErrorDetail[] } {
  const problems: ErrorDetail[] = [];
  if (typeof input !== 'object' || input === null || Array.isArray(input)) {
    return { problems: [{ field: where, message: 'must be an object with name and bic' }] };
  }
  const record = input as Record<string, unknown>;
  const bic = typeof record.bic === 'string' ? record.bic.trim() : record.bic;
  if (typeof bic !== 'string' || !BIC_PATTERN.test(bic)) {
    problems.push({
      field: `${where}.bic`,
      message:
        typeof bic === 'number'
          ? 'must be a string of 9 digits, not a number (a number loses the leading 0)'
          : typeof bic === 'string' && /^4\d{7}$/.test(bic)
            ? `${BIC_PROBLEM}: ${bic} looks like BIC 0${bic} without its leading 0 (a spreadsheet read the column as numbers; format it as text and write the 0 back)`
            : typeof bic === 'string' && SCIENTIFIC.test(bic)
              ? `${BIC_PROBLEM}: ${bic} is a number a spreadsheet wrote in scientific notation (format the column as text and enter the BICs again)`
              : BIC_PROBLEM,
    });
  }
  const name = typeof record.name === 'string' ? record.name.trim() : undefined;
  if (!name) problems.push({ field: `${where}.name`, message: 'must be a non-empty string' });
  else if (name.length > MAX_NAME_LENGTH) problems.push({ field: `${where}.name`, message: `must be at most ${MAX_NAME_LENGTH} characters` });
  else if (CONTROL_CHARACTER.test(name)) problems.push({ field: `${where}.name`, message: 'must not contain control characters' });
  const curated: { [K in CuratedTextField]?: string | null } = {};
  for (const field of CURATED_TEXT_FIELD_NAMES) curated[field] = optionalText(record[field], field, `${where}.${field}`, problems) ?? null;
  if (problems.length > 0) return { problems };
  return { bank: { bic: bic as string, name: name!, ...curated } };
}

/** An optional curated field's value, trimmed (undefined when empty), checked against its declaration. */
function optionalText(value: unknown, name: CuratedTextField, field: string, problems: ErrorDetail[]): string | undefined {
  const text = optionalString(value, field, problems);
  const declared: { pattern: string; problem?: string; digits?: boolean } = CURATED_TEXT_FIELDS[name];
  if (text === undefined || declared.problem === undefined || new RegExp(declared.pattern).test(text)) return text;
  const mangled = declared.digits && SCIENTIFIC.test(text) ? ` (${text} is a number a spreadsheet wrote in scientific notation: format the column as text and enter the values again)` : '';
  problems.push({ field, message: `${declared.problem}${mangled}` });
  return undefined;
}

function optionalString(value: unknown, field: string, problems: ErrorDetail[]): string | undefined {
  if (value === undefined || value === null || value === '') return undefined;
  if (typeof value !== 'string' || value.length > MAX_NAME_LENGTH) {
    problems.push({ field, message: `must be a string of at most ${MAX_NAME_LENGTH} characters` });
    return undefined;
  }
  if (CONTROL_CHARACTER.test(value.trim())) {
    problems.push({ field, message: 'must not contain control characters' });
    return undefined;
  }
  return value.trim();
}

/**
 * Validates a whole list: every entry, plus duplicated BICs. Returns the banks, or the first MAX_LISTED_PROBLEMS
 * problems found and how many there are in all (a file of half a million bad rows must not hold a million
 * problems in memory to say so).
 */
export function validateBankList(inputs: readonly unknown[], fieldOf: (index: number) => string): { banks: Bank[] } | { problems: ErrorDetail[]; total: number } {
  const banks: Bank[] = [];
  const problems: ErrorDetail[] = [];
  let total = 0;
  const note = (found: ErrorDetail[]) => {
    total += found.length;
    if (problems.length < MAX_LISTED_PROBLEMS) problems.push(...found.slice(0, MAX_LISTED_PROBLEMS - problems.length));
  };
  const seen = new Map<string, number>();
  inputs.forEach((input, index) => {
    const result = validateBank(input, fieldOf(index));
    if ('problems' in result) {
      note(result.problems);
      return;
    }
    const first = seen.get(result.bank.bic);
    if (first !== undefined) {
      note([{ field: `${fieldOf(index)}.bic`, message: `duplicates BIC ${result.bank.bic} of ${fieldOf(first)}` }]);
      return;
    }
    seen.set(result.bank.bic, index);
    if (total === 0) banks.push(result.bank);
  });
  return total > 0 ? { problems, total } : { banks };
}
