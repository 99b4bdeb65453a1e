import { CURATED_TEXT_FIELD_NAMES } from '@partner-gateway/contract/bank-curated-fields';
import { errors } from '../../errors.js';
import { validateBankList } from '../bank.js';
import type { CuratedInput } from '../bank-list-edits.js';
import type { RegistryEntry } from '../merge-registry.js';
import { parseBankFile } from './parse-bank-file.js';
import { parseEd807Registry } from './parse-ed807.js';

/**
 * The most banks a file may list: the SBP has a few hundred members and the directory about a thousand head
 * offices; a file of more is refused in the reading worker rather than merged and diffed on the serving thread.
 */
export const MAX_IMPORT_BANKS = 10_000;

/** An import file read and checked: a registry (ED807) or a list of curated rows (JSON, CSV). */
export type ImportFile = { kind: 'registry'; entries: RegistryEntry[]; received: number } | { kind: 'file'; rows: Array<CuratedInput & { name: string }>; received: number };

/**
 * Reads an import file by its Content-Type and checks every entry (one 422 lists the first 100 bad ones and counts them all). An ED807
 * directory is a registry: its facts are merged (mergeRegistry). A JSON or CSV file sets curated fields: each row
 * sets `name`, and `nameEn` / `sbpMemberId` only when its columns (CSV) or keys (JSON) are there, so that a file
 * without a member-id column never clears member ids.
 */
export function readImportFile(bytes: Uint8Array, contentType: string | undefined): ImportFile {
  const mediaType = (contentType ?? '').split(';')[0]!.trim().toLowerCase();
  if (mediaType === 'application/xml' || mediaType === 'text/xml') {
    const read = parseEd807Registry(bytes);
    if ('problems' in read) throw errors.validationFailed(read.problems, read.total);
    if (read.entries.length > MAX_IMPORT_BANKS) throw tooMany(read.entries.length, 'head offices');
    const received = read.entries.filter((entry) => entry.sbpParticipant).length;
    if (received === 0) throw errors.validationFailed([{ field: 'body', message: 'the directory lists no SBP head office' }]);
    return { kind: 'registry', entries: read.entries, received };
  }
  const parsed = parseBankFile(bytes, contentType);
  if ('problems' in parsed) throw errors.validationFailed(parsed.problems);
  if (parsed.entries.length === 0) throw errors.validationFailed([{ field: 'body', message: 'the file contains no banks' }]);
  const checked = validateBankList(parsed.entries, parsed.where);
  if ('problems' in checked) throw errors.validationFailed(checked.problems, checked.total);
  if (parsed.entries.length > MAX_IMPORT_BANKS) throw tooMany(parsed.entries.length, 'banks');
  const rows = checked.banks.map((bank, index) => {
    const raw = parsed.entries[index] as Record<string, unknown>;
    const present = CURATED_TEXT_FIELD_NAMES.filter((field) => Object.hasOwn(raw, field)).map((field) => [field, bank[field] ?? null]);
    return { bic: bank.bic, name: bank.name, ...Object.fromEntries(present) } as CuratedInput & { name: string };
  });
  return { kind: 'file', rows, received: rows.length };
}

function tooMany(count: number, what: string) {
  return errors.validationFailed([{ field: 'body', message: `the file lists ${count} ${what}; at most ${MAX_IMPORT_BANKS} are read` }]);
}
