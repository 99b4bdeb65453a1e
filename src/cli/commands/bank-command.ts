import { readFile } from 'node:fs/promises';
import { extname } from 'node:path';
import type { AdminClient } from '../admin-client.js';
import { CliError, print, table, type CliIo } from '../cli-io.js';
import { parseCommand } from '../parse-command.js';

interface AdminBank {
  bic: string;
  name: string;
  nameEn: string | null;
  sbpMemberId: string | null;
}

interface ImportReport {
  received: number;
  added: string[];
  changed: string[];
  removed: string[];
}

export const BANK_USAGE = `Usage: partner-gateway bank <command> [options]

Commands:
  list [--json]                       list the banks partners receive, in order
  add <bic> <name> [--name-en <name>] [--sbp-member-id <id>]
                                      add a bank at the end of the list
  remove <bic>                        remove a bank
  import <file> [--merge] [--type json|csv|xml]
                                      replace the list (or --merge into it) from a JSON, CSV (bic,name)
                                      or Bank of Russia ED807 XML file; all or nothing

Examples:
  partner-gateway bank import 20230518_ED807_full.xml
  partner-gateway bank add 044525225 "ПАО Сбербанк"`;

const CONTENT_TYPES: Record<string, string> = { json: 'application/json', csv: 'text/csv', xml: 'application/xml' };
const usageOf = (line: string) => `Usage: partner-gateway bank ${line}`;

/**
 * `partner-gateway bank ...`: manages the bank list through the admin API.
 *
 * @example
 * ```sh
 * partner-gateway bank import banks.csv --merge
 * ```
 */
export async function bankCommand(args: string[], io: CliIo, client: AdminClient): Promise<void> {
  const [command, ...rest] = args;
  switch (command) {
    case 'list': {
      const usage = usageOf('list [--json]');
      const { values } = parseCommand(rest, { json: { type: 'boolean' } }, [], usage);
      if (values.help) return print(io, usage);
      const { banks } = await client.request<{ banks: AdminBank[] }>('GET', '/admin/v1/banks');
      if (values.json) return print(io, JSON.stringify(banks, null, 2));
      return print(io, banks.length === 0 ? 'No banks.' : table(['BIC', 'NAME', 'ENGLISH NAME', 'SBP MEMBER ID'], banks.map((b) => [b.bic, b.name, b.nameEn ?? '', b.sbpMemberId ?? ''])));
    }
    case 'add': {
      const usage = usageOf('add <bic> <name> [--name-en <name>] [--sbp-member-id <id>]');
      const { values, positionals } = parseCommand(rest, { 'name-en': { type: 'string' }, 'sbp-member-id': { type: 'string' } }, ['bic', 'name'], usage);
      if (values.help) return print(io, usage);
      const bank = await client.request<AdminBank>('POST', '/admin/v1/banks', {
        bic: positionals[0],
        name: positionals.slice(1).join(' '),
        ...(values['name-en'] ? { nameEn: values['name-en'] } : {}),
        ...(values['sbp-member-id'] ? { sbpMemberId: values['sbp-member-id'] } : {}),
      });
      return print(io, `Added ${bank.bic} ${bank.name}`);
    }
    case 'remove': {
      const usage = usageOf('remove <bic>');
      const { values, positionals } = parseCommand(rest, {}, ['bic'], usage);
      if (values.help) return print(io, usage);
      await client.request('DELETE', `/admin/v1/banks/${encodeURIComponent(positionals[0]!)}`);
      return print(io, `Removed ${positionals[0]}`);
    }
    case 'import': {
      const usage = usageOf('import <file> [--merge] [--type json|csv|xml]');
      const { values, positionals } = parseCommand(rest, { merge: { type: 'boolean' }, type: { type: 'string' } }, ['file'], usage);
      if (values.help) return print(io, usage);
      const file = positionals[0]!;
      const type = String(values.type ?? extname(file).slice(1)).toLowerCase();
      const contentType = CONTENT_TYPES[type];
      if (!contentType) throw new CliError(`Cannot tell the format of ${file}: name it .json, .csv or .xml, or pass --type\n${usage}`, 2);
      let bytes: Buffer;
      try {
        bytes = await readFile(file);
      } catch (error) {
        throw new CliError(`Cannot read ${file}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`, 2);
      }
      const report = await client.request<ImportReport>('POST', `/admin/v1/banks/import?mode=${values.merge ? 'merge' : 'replace'}`, new Uint8Array(bytes), contentType);
      return print(io, `Imported ${report.received} banks: ${report.added.length} added, ${report.changed.length} changed, ${report.removed.length} removed`);
    }
    case undefined:
    case '--help':
    case '-h':
    case 'help':
      return print(io, BANK_USAGE);
    default:
      throw new CliError(`Unknown bank command ${command}\n\n${BANK_USAGE}`, 2);
  }
}
