import type { AdminApi } from '@partner-gateway/contract/admin-api-client';
import type { EditBankBody } from '@partner-gateway/contract/admin-banks';
import { CURATED_TEXT_FIELD_NAMES, CURATED_TEXT_FIELDS, type CuratedTextField } from '@partner-gateway/contract/bank-curated-fields';
import { CliError, print } from '@partner-gateway/client/cli/cli-io';
import type { Subcommand } from '@partner-gateway/client/cli/command-group';
import { parseCommand } from '@partner-gateway/client/cli/parse-command';
import { outcomeText } from './bank-changes-text.js';

/** The options that set the optional curated fields (`--name-en`, `--sbp-member-id`: CURATED_TEXT_FIELDS). */
const CURATED_OPTIONS: Record<string, { type: 'string' }> = Object.fromEntries(CURATED_TEXT_FIELD_NAMES.map((field) => [CURATED_TEXT_FIELDS[field].flag, { type: 'string' }]));
const curatedSynopsis = (clears: boolean) => CURATED_TEXT_FIELD_NAMES.map((field) => `[--${CURATED_TEXT_FIELDS[field].flag} <${CURATED_TEXT_FIELDS[field].placeholder}${clears ? '|""' : ''}>]`).join(' ');

/** The curated fields the options give, each as `value` makes it of the option's text (fields without an option left out). */
function curatedFromOptions(values: Record<string, string | boolean | undefined>, value: (text: string) => string | null | undefined): Partial<Record<CuratedTextField, string | null>> {
  const given = CURATED_TEXT_FIELD_NAMES.map((field) => [field, values[CURATED_TEXT_FIELDS[field].flag]] as const).filter(([, text]) => text !== undefined);
  return Object.fromEntries(given.map(([field, text]) => [field, value(String(text))]).filter(([, set]) => set !== undefined));
}

/** Optional on every change: the version it must apply to, and a comment for the history. */
const CHANGE_OPTIONS = { 'base-version': { type: 'string' }, comment: { type: 'string' } } as const;

function changeOptions(values: Record<string, string | boolean | undefined>, usage: string): { baseVersion?: number; comment?: string } {
  const base = values['base-version'];
  if (base !== undefined && !/^\d{1,9}$/.test(String(base))) throw new CliError(`--base-version must be a version number\n${usage}`, 2);
  return { ...(base !== undefined ? { baseVersion: Number(base) } : {}), ...(values.comment ? { comment: String(values.comment) } : {}) };
}

function position(text: string | undefined, usage: string): number {
  if (text === undefined || !/^\d{1,6}$/.test(text) || Number(text) < 1) throw new CliError(`the position must be a number from 1\n${usage}`, 2);
  return Number(text);
}

/**
 * `bank add`, `bank edit`, `bank move`, `bank remove`: one bank at a time, each a new version of the list
 * (`--base-version` refuses the change if the list has moved on since; `--comment` goes into the history).
 */
export const bankEditCommands: Record<string, Subcommand<AdminApi>> = {
  add: {
    synopsis: `<bic> <name> ${curatedSynopsis(false)} [--comment <text>]`,
    changes: true,
    summary: 'add a bank at the end of the list',
    run: async (args, io, admin, usage) => {
      const { values, positionals } = parseCommand(args, { ...CURATED_OPTIONS, ...CHANGE_OPTIONS }, ['bic', 'name'], usage);
      if (values.help) return print(io, usage);
      const bank = await admin.banks.add(
        {
          bic: positionals[0]!,
          name: positionals.slice(1).join(' '),
          ...curatedFromOptions(values, (text) => text || undefined),
        },
        changeOptions(values, usage),
      );
      return print(io, `Added ${bank.bic} ${bank.name}`);
    },
  },
  edit: {
    synopsis: `<bic> [--name <name>] ${curatedSynopsis(true)} [--position <n>]`,
    changes: true,
    summary: "change a bank's curated fields (an empty value clears it), or move it to position n",
    run: async (args, io, admin, usage) => {
      const options = { name: { type: 'string' }, ...CURATED_OPTIONS, position: { type: 'string' }, ...CHANGE_OPTIONS } as const;
      const { values, positionals } = parseCommand(args, options, ['bic'], usage);
      if (values.help) return print(io, usage);
      const body: EditBankBody = {
        ...(values.name !== undefined ? { name: String(values.name) } : {}),
        ...curatedFromOptions(values, (text) => text || null),
        ...(values.position !== undefined ? { position: position(String(values.position), usage) } : {}),
      };
      if (Object.keys(body).length === 0) throw new CliError(`Nothing to change: give --name, ${CURATED_TEXT_FIELD_NAMES.map((field) => `--${CURATED_TEXT_FIELDS[field].flag}`).join(', ')} or --position\n${usage}`, 2);
      return print(io, outcomeText(await admin.banks.edit(positionals[0]!, body, changeOptions(values, usage)), `Edited ${positionals[0]}`));
    },
  },
  move: {
    synopsis: '<bic> <position>',
    changes: true,
    summary: 'move a bank to a position (1 is first); the others keep their order',
    run: async (args, io, admin, usage) => {
      const { values, positionals } = parseCommand(args, CHANGE_OPTIONS, ['bic', 'position'], usage);
      if (values.help) return print(io, usage);
      const outcome = await admin.banks.edit(positionals[0]!, { position: position(positionals[1], usage) }, changeOptions(values, usage));
      return print(io, outcomeText(outcome, `Moved ${positionals[0]}`));
    },
  },
  remove: {
    synopsis: '<bic> [--comment <text>]',
    changes: true,
    summary: 'remove a bank',
    run: async (args, io, admin, usage) => {
      const { values, positionals } = parseCommand(args, CHANGE_OPTIONS, ['bic'], usage);
      if (values.help) return print(io, usage);
      await admin.banks.remove(positionals[0]!, changeOptions(values, usage));
      return print(io, `Removed ${positionals[0]}`);
    },
  },
};
