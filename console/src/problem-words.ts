import { eachCuratedText } from '@partner-gateway/contract/bank-curated-fields';
import type { Problem } from '@partner-gateway/contract/error-body';
import {
  BANK_NAME_EN_PATTERN,
  BANK_NAME_PATTERN,
  LOGIN_PATTERN,
  PATTERN_PROBLEMS,
  REQUEST_ID_PATTERN,
  REWARD_TYPE_PATTERN,
  SBP_MEMBER_ID_PATTERN,
} from '@partner-gateway/contract/patterns';

/** The admin API's field names as the console's forms label them. */
const FIELD_NAMES: Readonly<Record<string, string>> = {
  login: 'Login',
  password: 'Password',
  ipAllowlist: 'IP allowlist',
  rewardTypes: 'Reward types',
  status: 'Status',
  bic: 'BIC',
  name: 'Name',
  ...eachCuratedText((_field, declared) => declared.title),
  position: 'Position',
  label: 'Label',
  expiresInDays: 'Expires in (days)',
  role: 'Role',
  comment: 'Comment',
  requestId: 'Request id',
  authMethods: 'Authentication methods',
};

/** What a value of each of the contract's patterns looks like, in words (the API's own PATTERN_PROBLEMS first). */
const PATTERN_WORDS: Readonly<Record<string, string>> = {
  ...PATTERN_PROBLEMS,
  [SBP_MEMBER_ID_PATTERN]: '12 digits, or empty',
  [LOGIN_PATTERN]: '3 to 64 letters, digits or . _ @ -, starting with a letter or digit',
  [BANK_NAME_PATTERN]: 'at least one character that is not a space, and no control character',
  [BANK_NAME_EN_PATTERN]: 'no control character (a line break, a tab)',
  [REWARD_TYPE_PATTERN]: 'lower-case letters, digits and _, starting with a letter, up to 32 characters',
  [REQUEST_ID_PATTERN]: '1 to 64 letters, digits or . _ -',
};

/**
 * The schema's words that only say a value fitted none of a union's branches: noise beside the branch's own
 * message (`must match pattern …` then `must be null` then `must match a schema in anyOf`).
 */
const UNION_NOISE = /^(must be null|must match a schema in anyOf|must match exactly one schema in oneOf|must be equal to one of the allowed values)$/;

/** A field's name in words: its form label when known, else its path (`ipAllowlist[1]` → "IP allowlist, entry 2"). */
export function fieldName(field: string): string {
  const path = field.replace(/^body\./, '');
  const root = path.replace(/[[.].*$/, '');
  const index = /^[^[.]+\[(\d+)\]$/.exec(path);
  const named = FIELD_NAMES[root];
  if (named && index) return `${named}, entry ${Number(index[1]) + 1}`;
  return named && root === path ? named : path;
}

/** One schema message as a phrase: `must match pattern "^([0-9]{12})?$"` → "must be 12 digits, or empty". */
function inWords(message: string): string {
  const pattern = /^must match pattern "(.*)"$/.exec(message);
  if (pattern) {
    const words = PATTERN_WORDS[pattern[1]!];
    return words === undefined ? 'is not in the expected form' : words.startsWith('must ') ? words : `must be ${words}`;
  }
  const type = /^must be (string|integer|number|boolean|array|object)$/.exec(message);
  if (type) return `must be ${{ string: 'text', integer: 'a whole number', number: 'a number', boolean: 'yes or no', array: 'a list', object: 'a set of fields' }[type[1] as 'string']}`;
  return message;
}

/**
 * The API's problems as sentences a person reads: each names its field and what a valid value looks like
 * ("SBP member id must be 12 digits, or empty."), a union's generic refusals dropped when a field has a
 * specific one, and each sentence once.
 */
export function problemsInWords(problems: readonly Problem[]): Problem[] {
  const specific = new Set(problems.filter((problem) => !UNION_NOISE.test(problem.message)).map((problem) => problem.field));
  const seen = new Set<string>();
  const result: Problem[] = [];
  for (const problem of problems) {
    if (UNION_NOISE.test(problem.message) && specific.has(problem.field)) continue;
    const message = problem.field === undefined ? inWords(problem.message) : `${fieldName(problem.field)} ${UNION_NOISE.test(problem.message) ? 'is not a valid value' : inWords(problem.message)}.`;
    const key = `${problem.field ?? ''}\u0000${message}`;
    if (seen.has(key)) continue;
    seen.add(key);
    result.push({ ...problem, message });
  }
  return result;
}
