import { errors } from '../../errors.js';
import { parseBankCsv } from './parse-bank-csv.js';
import { parseBankJson, type ParseResult } from './parse-bank-json.js';
import { parseEd807 } from './parse-ed807.js';

/**
 * Reads an import file by its Content-Type (the contract's IMPORT_MEDIA_TYPES): JSON, CSV (with an optional
 * `charset` parameter) or an ED807 XML directory. Throws the 415 for any other type.
 */
export function parseBankFile(bytes: Uint8Array, contentType: string | undefined): ParseResult {
  const [mediaType = '', ...parameters] = (contentType ?? '').split(';').map((part) => part.trim().toLowerCase());
  const charset = parameters.find((parameter) => parameter.startsWith('charset='))?.slice('charset='.length).replace(/"/g, '');
  switch (mediaType) {
    case 'application/json':
      return parseBankJson(bytes);
    case 'text/csv':
      return parseBankCsv(bytes, charset);
    case 'application/xml':
    case 'text/xml':
      return parseEd807(bytes);
    default:
      throw errors.unsupportedMediaType('application/json, text/csv or application/xml');
  }
}
