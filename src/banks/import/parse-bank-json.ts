import type { ErrorDetail } from '../../errors.js';
import { decodeText } from './decode-text.js';

/** Entries read from an import file, before validation, with how to name each in an error. */
export interface ParsedEntries {
  entries: unknown[];
  where(index: number): string;
}

export type ParseResult = ParsedEntries | { problems: ErrorDetail[] };

/** Reads a JSON import: `{"banks": [...]}` or a bare array of `{name, bic}` objects. */
export function parseBankJson(bytes: Uint8Array): ParseResult {
  let value: unknown;
  try {
    value = JSON.parse(decodeText(bytes));
  } catch (error) {
    return { problems: [{ field: 'body', message: `not valid JSON: ${(error as Error).message}` }] };
  }
  const list = Array.isArray(value) ? value : (value as { banks?: unknown } | null)?.banks;
  if (!Array.isArray(list)) {
    return { problems: [{ field: 'body', message: 'must be an array of banks or an object with a banks array' }] };
  }
  const prefix = Array.isArray(value) ? '' : 'banks';
  return { entries: list, where: (index) => `${prefix}[${index}]` };
}
