/** The media types a bank import file may be sent as, by file name extension. */
export const IMPORT_MEDIA_TYPES_BY_EXTENSION = {
  json: 'application/json',
  csv: 'text/csv',
  xml: 'application/xml',
} as const;

/** Every media type the import reads (`text/xml` too, for ED807 files sent that way). */
export const IMPORT_MEDIA_TYPES = ['application/json', 'text/csv', 'application/xml', 'text/xml'] as const;

/**
 * The Content-Type an import file is sent with, from its name; undefined for a kind the gateway cannot read.
 *
 * @example
 * ```ts
 * importContentType('banks.csv'); // 'text/csv'
 * ```
 */
export function importContentType(fileName: string): string | undefined {
  const extension = fileName.toLowerCase().split('.').pop() ?? '';
  return Object.hasOwn(IMPORT_MEDIA_TYPES_BY_EXTENSION, extension)
    ? IMPORT_MEDIA_TYPES_BY_EXTENSION[extension as keyof typeof IMPORT_MEDIA_TYPES_BY_EXTENSION]
    : undefined;
}
