import type { BankChanges, ImportMode, ImportReport } from '@partner-gateway/contract/admin-banks';
import { errors, type AppError } from '../errors.js';
import { validateBank, validateBankList, type Bank } from './bank.js';
import { diffBanks } from './bank-diff.js';
import type { BankRepository, StoredBank } from './bank-repository.js';
import { parseBankFile } from './import/parse-bank-file.js';

/**
 * The bank registry's write side, as the admin API uses it. Every bulk change is all-or-nothing: a list with
 * any bad entry is refused whole, with every problem listed, and nothing changes.
 */
export interface BankAdmin {
  list(): Promise<StoredBank[]>;
  replaceAll(input: unknown): Promise<BankChanges>;
  add(input: unknown): Promise<StoredBank>;
  remove(bic: string): Promise<void>;
  importFile(bytes: Uint8Array, contentType: string | undefined, mode: ImportMode): Promise<ImportReport>;
  /**
   * What importing the file would do, without doing it: the same reading and checks (every bad entry listed
   * in one 422) and the same comparison the registry makes when it applies a list.
   */
  previewImport(bytes: Uint8Array, contentType: string | undefined, mode: ImportMode): Promise<ImportReport>;
  /**
   * The 422 the bank checks give a body (`list`: PUT's `{banks}`, `one`: POST's bank), or undefined when they find
   * nothing wrong: the routes word a body their schema refused with it, every bad entry listed as the checks say.
   */
  refusal(input: unknown, shape: 'list' | 'one'): AppError | undefined;
}

export function createBankAdmin(banks: BankRepository): BankAdmin {
  return {
    list: () => banks.list(),
    async replaceAll(input) {
      const list = (input as { banks?: unknown } | null)?.banks;
      if (!Array.isArray(list)) throw errors.validationFailed([{ field: 'banks', message: 'must be an array of banks' }]);
      return banks.apply(validListOrThrow(list, (index) => `banks[${index}]`), 'replace');
    },
    async add(input) {
      const result = validateBank(input, 'body');
      if ('problems' in result) throw errors.validationFailed(result.problems.map(stripBodyPrefix));
      const stored = await banks.add(result.bank);
      if (!stored) throw errors.bankExists(result.bank.bic);
      return stored;
    },
    refusal(input, shape) {
      if (shape === 'one') {
        const result = validateBank(input, 'body');
        return 'problems' in result ? errors.validationFailed(result.problems.map(stripBodyPrefix)) : undefined;
      }
      const list = (input as { banks?: unknown } | null)?.banks;
      if (!Array.isArray(list)) return errors.validationFailed([{ field: 'banks', message: 'must be an array of banks' }]);
      const result = validateBankList(list, (index) => `banks[${index}]`);
      return 'problems' in result ? errors.validationFailed(result.problems) : undefined;
    },
    async remove(bic) {
      if (!(await banks.remove(bic))) throw errors.bankNotFound(bic);
    },
    async importFile(bytes, contentType, mode) {
      const list = readImportFile(bytes, contentType);
      const changes = await banks.apply(list, mode);
      return { received: list.length, ...changes };
    },
    async previewImport(bytes, contentType, mode) {
      const list = readImportFile(bytes, contentType);
      return { received: list.length, ...diffBanks(await banks.list(), list, mode) };
    },
  };
}

function readImportFile(bytes: Uint8Array, contentType: string | undefined): Bank[] {
  const parsed = parseBankFile(bytes, contentType);
  if ('problems' in parsed) throw errors.validationFailed(parsed.problems);
  if (parsed.entries.length === 0) throw errors.validationFailed([{ field: 'body', message: 'the file contains no banks' }]);
  return validListOrThrow(parsed.entries, parsed.where);
}

function validListOrThrow(inputs: readonly unknown[], where: (index: number) => string): Bank[] {
  const result = validateBankList(inputs, where);
  if ('problems' in result) throw errors.validationFailed(result.problems);
  return result.banks;
}

function stripBodyPrefix<T extends { field?: string }>(detail: T): T {
  return detail.field ? { ...detail, field: detail.field.replace(/^body\./, '') } : detail;
}
