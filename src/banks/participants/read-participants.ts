import { parse } from 'csv-parse/sync';
import type { ParticipantEntry } from '@partner-gateway/contract/admin-bank-participants';
import { BANK_NAME_MAX_LENGTH, BIC_PROBLEM, BIC_REGEXP } from '@partner-gateway/contract/patterns';
import { errors, MAX_LISTED_PROBLEMS, type ErrorDetail } from '../../errors.js';
import { decodeText } from '../import/decode-text.js';

/** The most participants a list may hold: the SBP has a few hundred; a list of more is refused in the reading worker. */
export const MAX_PARTICIPANTS = 10_000;

const MEMBER_ID = /^\d{12}$/;
const CONTROL_CHARACTER = /[\u0000-\u001f\u007f]/;
/** Each field's accepted spellings: ours, and the snake_case payout APIs answer (`member_id`, `name_en`). */
const KEYS = { memberId: ['memberId', 'member_id'], name: ['name'], nameEn: ['nameEn', 'name_en'], bic: ['bic'] } as const;
const KNOWN_COLUMNS: readonly string[] = Object.values(KEYS).flat();

/** The list as read, before its entries are checked, with how to name each entry in a problem. */
interface RawList {
  entries: unknown[];
  where(index: number): string;
}

/**
 * Reads the settlement bank's B2C participant list, JSON (`[{memberId, name, nameEn?, bic?}]` or
 * `{"participants": [...]}`) or CSV (a header naming `memberId` and `name`, optionally `nameEn`, `bic`; snake_case
 * too), by its Content-Type, and checks every entry: a 12-digit member id (a string: a number loses leading
 * zeros), a name, a BIC when given, no member id or BIC twice. Throws one 422 listing the first 100 problems and
 * counting them all, a 415 for another type.
 *
 * @example
 * ```ts
 * readParticipants(bytes('[{"memberId":"100000000111","name":"Сбербанк","bic":"044525225"}]'), 'application/json');
 * // [{ memberId: '100000000111', name: 'Сбербанк', nameEn: null, bic: '044525225' }]
 * ```
 */
export function readParticipants(bytes: Uint8Array, contentType: string | undefined): ParticipantEntry[] {
  const [mediaType = '', ...parameters] = (contentType ?? '').split(';').map((part) => part.trim().toLowerCase());
  const charset = parameters.find((parameter) => parameter.startsWith('charset='))?.slice('charset='.length).replace(/"/g, '');
  const raw = mediaType === 'application/json' ? readJson(bytes) : mediaType === 'text/csv' ? readCsv(bytes, charset) : undefined;
  if (!raw) throw errors.unsupportedMediaType('application/json or text/csv');
  if (raw.entries.length === 0) throw errors.validationFailed([{ field: 'body', message: 'the list contains no participants' }]);
  if (raw.entries.length > MAX_PARTICIPANTS) throw errors.validationFailed([{ field: 'body', message: `the list holds ${raw.entries.length} participants; at most ${MAX_PARTICIPANTS} are read` }]);
  return checkEntries(raw);
}

function readJson(bytes: Uint8Array): RawList {
  let value: unknown;
  try {
    value = JSON.parse(decodeText(bytes));
  } catch (error) {
    throw errors.validationFailed([{ field: 'body', message: `not valid JSON: ${(error as Error).message}` }]);
  }
  const list = Array.isArray(value) ? value : (value as { participants?: unknown } | null)?.participants;
  if (!Array.isArray(list)) throw errors.validationFailed([{ field: 'body', message: 'must be an array of participants or an object with a participants array' }]);
  const prefix = Array.isArray(value) ? '' : 'participants';
  return { entries: list, where: (index) => `${prefix}[${index}]` };
}

function readCsv(bytes: Uint8Array, charset: string | undefined): RawList {
  let header: string[] = [];
  const lines: number[] = [];
  let records: unknown[];
  try {
    records = parse(decodeText(bytes, charset), {
      columns: (names: string[]) => (header = names.map((column) => column.trim())),
      skip_empty_lines: true,
      trim: true,
      bom: true,
      on_record: (record: Record<string, string>, context: { lines: number }) => {
        lines.push(context.lines);
        return record;
      },
    }) as unknown[];
  } catch (error) {
    const line = (error as { lines?: number }).lines;
    throw errors.validationFailed([{ ...(line ? { line } : { field: 'body' }), message: `not valid CSV: ${(error as Error).message}` }]);
  }
  const problems: ErrorDetail[] = [];
  for (const column of ['memberId', 'name'] as const) {
    if (!KEYS[column].some((key) => header.includes(key))) problems.push({ line: 1, message: `the header must name a ${column} column` });
  }
  for (const column of header) if (!KNOWN_COLUMNS.includes(column)) problems.push({ line: 1, message: `unknown column ${column}; expected memberId, name, nameEn, bic` });
  if (problems.length > 0) throw errors.validationFailed(problems);
  return { entries: records, where: (index) => `line ${lines[index] ?? '?'}` };
}

function pick(record: Record<string, unknown>, field: keyof typeof KEYS): unknown {
  for (const key of KEYS[field]) if (record[key] !== undefined) return record[key];
  return undefined;
}

function text(value: unknown, field: string, required: boolean, problems: ErrorDetail[]): string | null {
  if (value === undefined || value === null || value === '') {
    if (required) problems.push({ field, message: 'must be a non-empty string' });
    return null;
  }
  if (typeof value !== 'string') {
    problems.push({ field, message: typeof value === 'number' ? 'must be a string, not a number (a number loses leading zeros)' : 'must be a string' });
    return null;
  }
  const trimmed = value.trim();
  if (required && trimmed === '') problems.push({ field, message: 'must be a non-empty string' });
  else if (trimmed.length > BANK_NAME_MAX_LENGTH) problems.push({ field, message: `must be at most ${BANK_NAME_MAX_LENGTH} characters` });
  else if (CONTROL_CHARACTER.test(trimmed)) problems.push({ field, message: 'must not contain control characters' });
  else return trimmed === '' ? null : trimmed;
  return null;
}

/** Every entry checked; the list, or one 422 with the first problems and their count. */
function checkEntries(raw: RawList): ParticipantEntry[] {
  const found: ErrorDetail[] = [];
  let total = 0;
  const note = (problems: ErrorDetail[]) => {
    total += problems.length;
    if (found.length < MAX_LISTED_PROBLEMS) found.push(...problems.slice(0, MAX_LISTED_PROBLEMS - found.length));
  };
  const members = new Map<string, string>();
  const bics = new Map<string, string>();
  const entries: ParticipantEntry[] = [];
  raw.entries.forEach((input, index) => {
    const where = raw.where(index);
    if (typeof input !== 'object' || input === null || Array.isArray(input)) return note([{ field: where, message: 'must be an object with memberId and name' }]);
    const record = input as Record<string, unknown>;
    const problems: ErrorDetail[] = [];
    const memberId = text(pick(record, 'memberId'), `${where}.memberId`, true, problems);
    if (memberId !== null && !MEMBER_ID.test(memberId)) problems.push({ field: `${where}.memberId`, message: 'must be a string of 12 digits' });
    const name = text(pick(record, 'name'), `${where}.name`, true, problems);
    const nameEn = text(pick(record, 'nameEn'), `${where}.nameEn`, false, problems);
    const bic = text(pick(record, 'bic'), `${where}.bic`, false, problems);
    if (bic !== null && !BIC_REGEXP.test(bic)) problems.push({ field: `${where}.bic`, message: BIC_PROBLEM });
    if (problems.length > 0) return note(problems);
    const twice = (seen: Map<string, string>, key: string, field: string) => {
      const first = seen.get(key);
      if (first !== undefined) problems.push({ field: `${where}.${field}`, message: `duplicates ${field} ${key} of ${first}` });
      else seen.set(key, where);
    };
    twice(members, memberId!, 'memberId');
    if (bic !== null) twice(bics, bic, 'bic');
    if (problems.length > 0) return note(problems);
    entries.push({ memberId: memberId!, name: name!, nameEn, bic });
  });
  if (total > 0) throw errors.validationFailed(found, total);
  return entries;
}
