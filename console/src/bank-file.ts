/** The Content-Type an import file is sent with, from its name; undefined for a kind the gateway cannot read. */
export function importContentType(fileName: string): string | undefined {
  const extension = fileName.toLowerCase().split('.').pop();
  switch (extension) {
    case 'json':
      return 'application/json';
    case 'csv':
      return 'text/csv';
    case 'xml':
      return 'application/xml';
    default:
      return undefined;
  }
}
