import type { AdminApi } from '@partner-gateway/contract/admin-api-client';
import { CliError, print, table } from '@partner-gateway/client/cli/cli-io';
import type { Subcommand } from '@partner-gateway/client/cli/command-group';
import { parseCommand } from '@partner-gateway/client/cli/parse-command';
import { askConfirmation } from '../ask-confirmation.js';
import { changeLines, outcomeText } from './bank-changes-text.js';

function versionNumber(text: string | undefined, usage: string): number {
  if (text === undefined || !/^\d{1,9}$/.test(text)) throw new CliError(`the version must be a number\n${usage}`, 2);
  return Number(text);
}

/** `bank versions`, `bank show-version <n>`, `bank restore <n>`: the list's history and rollback. */
export const bankVersionCommands: Record<string, Subcommand<AdminApi>> = {
  versions: {
    synopsis: '[--limit <n>] [--cursor <c>] [--json] [--wide]',
    changes: false,
    summary: 'versions of the list, newest first: who, when, source, what changed',
    run: async (args, io, admin, usage) => {
      const { values } = parseCommand(args, { limit: { type: 'string' }, cursor: { type: 'string' }, json: { type: 'boolean' }, wide: { type: 'boolean' } }, [], usage);
      if (values.help) return print(io, usage);
      const page = await admin.banks.versions({
        ...(values.cursor ? { cursor: String(values.cursor) } : {}),
        ...(values.limit ? { limit: versionNumber(String(values.limit), usage) } : {}),
      });
      if (values.json) return print(io, JSON.stringify(page, null, 2));
      const rows = page.versions.map((v) => [
        String(v.number),
        v.createdAt,
        v.author.name,
        v.source + (v.fileName ? ` ${v.fileName}` : '') + (v.restoredFrom !== null ? ` of ${v.restoredFrom}` : ''),
        `+${v.added} ~${v.changed} -${v.removed}`,
        String(v.banks),
        v.comment ?? '',
      ]);
      const text = table(['N', 'WHEN', 'WHO', 'SOURCE', 'CHANGES', 'BANKS', 'COMMENT'], rows, { wide: values.wide === true, cutLast: ['N', 'WHEN', 'CHANGES', 'BANKS'] });
      return print(io, page.nextCursor ? `${text}\nOlder: partner-gateway bank versions --cursor ${page.nextCursor}` : text);
    },
  },
  'show-version': {
    synopsis: '<n> [--json]',
    changes: false,
    summary: "one version: who made it and its changes from the version before it, field by field",
    run: async (args, io, admin, usage) => {
      const { values, positionals } = parseCommand(args, { json: { type: 'boolean' } }, ['n'], usage);
      if (values.help) return print(io, usage);
      const version = await admin.banks.version(versionNumber(positionals[0], usage));
      if (values.json) return print(io, JSON.stringify(version, null, 2));
      const head = `Version ${version.number}, ${version.createdAt}, by ${version.author.name} (${version.source}${version.fileName ? ` ${version.fileName}` : ''}): ${version.banks} banks, ETag ${version.etag}`;
      return print(io, [head, ...(version.comment ? [`Comment: ${version.comment}`] : []), ...changeLines(version.changes)].join('\n'));
    },
  },
  restore: {
    synopsis: '<n> [--yes] [--comment <text>]',
    changes: true,
    summary: 'make the list what it was in version n again (a new version); shows what changes and asks, or --yes',
    run: async (args, io, admin, usage) => {
      const { values, positionals } = parseCommand(args, { yes: { type: 'boolean' }, comment: { type: 'string' } }, ['n'], usage);
      if (values.help) return print(io, usage);
      const n = versionNumber(positionals[0], usage);
      const preview = await admin.banks.restore(n, { dryRun: true });
      print(io, outcomeText(preview, `Restoring version ${n} over version ${preview.baseVersion}`));
      if (preview.changes.length === 0) return;
      if (!values.yes) {
        if (!io.stdin.isTTY) throw new CliError('Restoring must be confirmed: pass --yes (or run in a terminal to be asked)', 2);
        if (!(await askConfirmation(io, `Restore version ${n} as version ${preview.baseVersion + 1}?`))) throw new CliError('Nothing changed.', 1);
      }
      const outcome = await admin.banks.restore(n, { baseVersion: preview.baseVersion, ...(values.comment ? { comment: String(values.comment) } : {}) });
      return print(io, `Restored version ${n} as version ${outcome.version}`);
    },
  },
};
