import { readFile } from 'node:fs/promises';
import { extname } from 'node:path';
import type { AdminApi } from '@partner-gateway/contract/admin-api-client';
import { IMPORT_MEDIA_TYPES_BY_EXTENSION } from '@partner-gateway/contract/import-media-types';
import { CliError, print, table } from '@partner-gateway/client/cli/cli-io';
import type { CommandGroup } from '@partner-gateway/client/cli/command-group';
import { parseCommand } from '@partner-gateway/client/cli/parse-command';

/**
 * `partner-gateway bank ...`: manages the bank list through the admin API.
 *
 * @example
 * ```sh
 * partner-gateway bank import banks.csv --merge
 * ```
 */
export const bankCommands: CommandGroup<AdminApi> = {
  command: 'partner-gateway bank',
  summary: 'manage the bank list',
  subcommands: {
    list: {
      synopsis: '[--json] [--wide]',
      summary: 'list the banks partners receive, in order (--wide: names longer than the table\'s\n100 columns whole)',
      run: async (args, io, admin, usage) => {
        const { values } = parseCommand(args, { json: { type: 'boolean' }, wide: { type: 'boolean' } }, [], usage);
        if (values.help) return print(io, usage);
        const { banks } = await admin.banks.list();
        if (values.json) return print(io, JSON.stringify(banks, null, 2));
        const rows = banks.map((b) => [b.bic, b.name, b.nameEn ?? '', b.sbpMemberId ?? '']);
        return print(io, banks.length === 0 ? 'No banks.' : table(['BIC', 'NAME', 'ENGLISH NAME', 'SBP MEMBER ID'], rows, { wide: values.wide === true, cutLast: ['BIC', 'SBP MEMBER ID'] }));
      },
    },
    add: {
      synopsis: '<bic> <name> [--name-en <name>] [--sbp-member-id <id>]',
      summary: 'add a bank at the end of the list',
      run: async (args, io, admin, usage) => {
        const { values, positionals } = parseCommand(args, { 'name-en': { type: 'string' }, 'sbp-member-id': { type: 'string' } }, ['bic', 'name'], usage);
        if (values.help) return print(io, usage);
        const bank = await admin.banks.add({
          bic: positionals[0]!,
          name: positionals.slice(1).join(' '),
          ...(values['name-en'] ? { nameEn: String(values['name-en']) } : {}),
          ...(values['sbp-member-id'] ? { sbpMemberId: String(values['sbp-member-id']) } : {}),
        });
        return print(io, `Added ${bank.bic} ${bank.name}`);
      },
    },
    remove: {
      synopsis: '<bic>',
      summary: 'remove a bank',
      run: async (args, io, admin, usage) => {
        const { values, positionals } = parseCommand(args, {}, ['bic'], usage);
        if (values.help) return print(io, usage);
        await admin.banks.remove(positionals[0]!);
        return print(io, `Removed ${positionals[0]}`);
      },
    },
    import: {
      synopsis: '<file> [--merge] [--type json|csv|xml]',
      summary: 'replace the list (or --merge into it) from a JSON, CSV (bic,name) or Bank of Russia ED807\nXML file; all or nothing',
      run: async (args, io, admin, usage) => {
        const { values, positionals } = parseCommand(args, { merge: { type: 'boolean' }, type: { type: 'string' } }, ['file'], usage);
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
      },
    },
  },
  epilogue: `Examples:
  partner-gateway bank import 20230518_ED807_full.xml
  partner-gateway bank add 044525225 "ПАО Сбербанк"`,
};
