import { readFile } from 'node:fs/promises';
import { extname } from 'node:path';
import type { AdminApi } from '@partner-gateway/contract/admin-api-client';
import { IMPORT_MEDIA_TYPES_BY_EXTENSION } from '@partner-gateway/contract/import-media-types';
import { CliError, print, table, type CliIo } from '../cli-io.js';
import { parseCommand } from '../parse-command.js';

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

const usageOf = (line: string) => `Usage: partner-gateway bank ${line}`;

/**
 * `partner-gateway bank ...`: manages the bank list through the admin API.
 *
 * @example
 * ```sh
 * partner-gateway bank import banks.csv --merge
 * ```
 */
export async function bankCommand(args: string[], io: CliIo, admin: AdminApi): Promise<void> {
  const [command, ...rest] = args;
  switch (command) {
    case 'list': {
      const usage = usageOf('list [--json]');
      const { values } = parseCommand(rest, { json: { type: 'boolean' } }, [], usage);
      if (values.help) return print(io, usage);
      const { banks } = await admin.banks.list();
      if (values.json) return print(io, JSON.stringify(banks, null, 2));
      return print(io, banks.length === 0 ? 'No banks.' : table(['BIC', 'NAME', 'ENGLISH NAME', 'SBP MEMBER ID'], banks.map((b) => [b.bic, b.name, b.nameEn ?? '', b.sbpMemberId ?? ''])));
    }
    case 'add': {
      const usage = usageOf('add <bic> <name> [--name-en <name>] [--sbp-member-id <id>]');
      const { values, positionals } = parseCommand(rest, { 'name-en': { type: 'string' }, 'sbp-member-id': { type: 'string' } }, ['bic', 'name'], usage);
      if (values.help) return print(io, usage);
      const bank = await admin.banks.add({
        bic: positionals[0]!,
        name: positionals.slice(1).join(' '),
        ...(values['name-en'] ? { nameEn: String(values['name-en']) } : {}),
        ...(values['sbp-member-id'] ? { sbpMemberId: String(values['sbp-member-id']) } : {}),
      });
      return print(io, `Added ${bank.bic} ${bank.name}`);
    }
    case 'remove': {
      const usage = usageOf('remove <bic>');
      const { values, positionals } = parseCommand(rest, {}, ['bic'], usage);
      if (values.help) return print(io, usage);
      await admin.banks.remove(positionals[0]!);
      return print(io, `Removed ${positionals[0]}`);
    }
    case 'import': {
      const usage = usageOf('import <file> [--merge] [--type json|csv|xml]');
      const { values, positionals } = parseCommand(rest, { merge: { type: 'boolean' }, type: { type: 'string' } }, ['file'], usage);
      if (values.help) return print(io, usage);
      const file = positionals[0]!;
      const type = String(values.type ?? extname(file).slice(1)).toLowerCase();
      const contentType = Object.hasOwn(IMPORT_MEDIA_TYPES_BY_EXTENSION, type) ? IMPORT_MEDIA_TYPES_BY_EXTENSION[type as keyof typeof IMPORT_MEDIA_TYPES_BY_EXTENSION] : undefined;
      if (!contentType) throw new CliError(`Cannot tell the format of ${file}: name it .json, .csv or .xml, or pass --type\n${usage}`, 2);
      let bytes: Buffer;
      try {
        bytes = await readFile(file);
      } catch (error) {
        throw new CliError(`Cannot read ${file}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`, 2);
      }
      const report = await admin.banks.import({ bytes: new Uint8Array(bytes), contentType }, { mode: values.merge ? 'merge' : 'replace' });
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
