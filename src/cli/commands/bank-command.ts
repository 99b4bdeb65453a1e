import { readFile, writeFile } from 'node:fs/promises';
import { basename, extname } from 'node:path';
import type { AdminApi } from '@partner-gateway/contract/admin-api-client';
import { IMPORT_MEDIA_TYPES_BY_EXTENSION } from '@partner-gateway/contract/import-media-types';
import { CURATED_TEXT_FIELD_NAMES, CURATED_TEXT_FIELDS } from '@partner-gateway/contract/bank-curated-fields';
import { CliError, print, table } from '@partner-gateway/client/cli/cli-io';
import type { CommandGroup } from '@partner-gateway/client/cli/command-group';
import { parseCommand } from '@partner-gateway/client/cli/parse-command';
import { askConfirmation } from '../ask-confirmation.js';
import { outcomeText } from './bank-changes-text.js';
import { bankAdmissionCommands } from './bank-admission-command.js';
import { bankParticipantCommands } from './bank-participant-command.js';
import { bankEditCommands } from './bank-edit-command.js';
import { bankSyncCommands } from './bank-sync-command.js';
import { bankVersionCommands } from './bank-version-command.js';

/**
 * `partner-gateway bank ...`: manages the bank list through the admin API. Every change is a version of the list.
 *
 * @example
 * ```sh
 * partner-gateway bank import 20230518_ED807_full.xml --dry-run
 * ```
 */
export const bankCommands: CommandGroup<AdminApi> = {
  command: 'partner-gateway bank',
  summary: 'manage the bank list',
  subcommands: {
    list: {
      synopsis: '[--json] [--wide]',
      changes: false,
      summary: 'list the banks partners receive, in order (--wide: names longer than the table\'s\n100 columns whole)',
      run: async (args, io, admin, usage) => {
        const { values } = parseCommand(args, { json: { type: 'boolean' }, wide: { type: 'boolean' } }, [], usage);
        if (values.help) return print(io, usage);
        const { banks } = await admin.banks.list();
        if (values.json) return print(io, JSON.stringify(banks, null, 2));
        const rows = banks.map((b) => [b.bic, b.name, ...CURATED_TEXT_FIELD_NAMES.map((field) => b[field] ?? '')]);
        const headings = ['BIC', 'NAME', ...CURATED_TEXT_FIELD_NAMES.map((field) => CURATED_TEXT_FIELDS[field].heading)];
        return print(io, banks.length === 0 ? 'No banks.' : table(headings, rows, { wide: values.wide === true, cutLast: ['BIC', 'SBP MEMBER ID'] }));
      },
    },
    ...bankEditCommands,
    export: {
      synopsis: '<file.csv> [--separator ,|;]',
      changes: false,
      summary:
        "write the list's curated fields (bic, name, nameEn, sbpMemberId) to a CSV file for a\nspreadsheet (UTF-8 with a BOM); edit it and bring it back with import --curate.\n--separator ';': for a spreadsheet in a Russian locale",
      run: async (args, io, admin, usage) => {
        const { values, positionals } = parseCommand(args, { separator: { type: 'string' } }, ['file'], usage);
        if (values.help) return print(io, usage);
        const separator = values.separator === undefined ? ',' : String(values.separator);
        if (separator !== ',' && separator !== ';') throw new CliError(`--separator must be , or ;\n${usage}`, 2);
        const file = positionals[0]!;
        const exported = await admin.banks.exportCsv({ separator });
        try {
          await writeFile(file, exported.text);
        } catch (error) {
          throw new CliError(`Cannot write ${file}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`, 2);
        }
        const banks = exported.text.split('\r\n').filter(Boolean).length - 1;
        return print(io, `Exported version ${exported.version ?? '?'} (${banks} banks) to ${file}; import it back with: partner-gateway bank import ${file} --curate`);
      },
    },
    import: {
      synopsis: '<file> [--dry-run] [--replace | --curate] [--yes] [--comment <text>] [--type json|csv|xml]',
      changes: true,
      summary:
        'merge a JSON, CSV (bic,name) or Bank of Russia ED807 XML file into the list: curated\nnames, member ids and order stay; prints every change and, in a terminal, asks first.\n--dry-run: only the preview. --replace: the list becomes the file (asks, or --yes).\n--curate: only the listed banks\' curated fields (an edited export); other BICs are listed',
      run: async (args, io, admin, usage) => {
        const options = { 'dry-run': { type: 'boolean' }, replace: { type: 'boolean' }, curate: { type: 'boolean' }, yes: { type: 'boolean' }, comment: { type: 'string' }, type: { type: 'string' } } as const;
        const { values, positionals } = parseCommand(args, options, ['file'], usage);
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
        const body = { bytes: new Uint8Array(bytes), contentType };
        if (values.replace && values.curate) throw new CliError(`--replace and --curate exclude each other\n${usage}`, 2);
        const mode = values.replace ? 'replace' : values.curate ? 'curate' : 'merge';
        const preview = await admin.banks.import(body, { mode, dryRun: true });
        const doing = { replace: 'Replacing the list with', curate: 'Setting the curated fields of', merge: 'Merging' }[mode];
        const heading = `${doing} ${basename(file)} (${preview.received} banks) ${mode === 'curate' ? 'on' : 'into'} version ${preview.baseVersion}`;
        print(io, outcomeText(preview, heading));
        if (preview.unknown?.length) print(io, `Not in the list, not added (${preview.unknown.length}): ${preview.unknown.join(' ')}`);
        if (values['dry-run'] || preview.changes.length === 0) return;
        if (!values.yes && (io.stdin.isTTY || mode === 'replace')) {
          if (!io.stdin.isTTY) throw new CliError('Replacing the whole list must be confirmed: pass --yes (or run in a terminal to be asked)', 2);
          if (!(await askConfirmation(io, `Apply these ${preview.changes.length} changes as version ${preview.baseVersion + 1}?`))) throw new CliError('Nothing changed.', 1);
        }
        const report = await admin.banks.import(body, {
          mode,
          confirm: mode === 'replace',
          baseVersion: preview.baseVersion,
          fileName: basename(file),
          ...(values.comment ? { comment: String(values.comment) } : {}),
        });
        return print(io, `Applied as version ${report.version}: ${report.added.length} added, ${report.changed.length} changed, ${report.removed.length} removed`);
      },
    },
    ...bankVersionCommands,
    ...bankSyncCommands,
    ...bankAdmissionCommands,
    ...bankParticipantCommands,
  },
  epilogue: `Examples:
  partner-gateway bank import 20230518_ED807_full.xml --dry-run
  partner-gateway bank export banks.csv --separator ';'
  partner-gateway bank import banks.csv --curate
  partner-gateway bank move 044525225 1
  partner-gateway bank versions
  partner-gateway bank restore 3
  partner-gateway bank sync --dry-run
  partner-gateway bank pending approve
  partner-gateway bank queue --pending
  partner-gateway bank admit 044525466 041708706
  partner-gateway bank exclude 044525444 --reason 'wallets only'`,
};
