import type { AdminApi } from '@partner-gateway/contract/admin-api-client';
import type { BankExclusion } from '@partner-gateway/contract/admin-bank-admissions';
import { CliError, print, table } from '@partner-gateway/client/cli/cli-io';
import type { Subcommand } from '@partner-gateway/client/cli/command-group';
import { parseCommand, splitList } from '@partner-gateway/client/cli/parse-command';

const ruleText = (rule: BankExclusion) => `${rule.kind === 'bic' ? 'BIC' : 'name'} ${rule.value} (${rule.reason})`;

/**
 * `bank queue`, `bank admit`, `bank exclude`, `bank unexclude`, `bank exclusions`, `bank exclusion add|remove`: the
 * review queue of new registry banks (issue 34). Each change is a checked action: under maker-checker it prints
 * the proposal and exits 4.
 *
 * @example
 * ```sh
 * partner-gateway bank queue
 * partner-gateway bank admit 044525466 041708706
 * partner-gateway bank admit 041708706 --name 'Владбизнесбанк'
 * partner-gateway bank exclude 044525444 --reason 'wallets only'
 * ```
 */
export const bankAdmissionCommands: Record<string, Subcommand<AdminApi>> = {
  queue: {
    synopsis: '[--pending] [--json] [--wide]',
    changes: false,
    summary: 'new SBP head offices a registry merge or sync found, waiting for an operator: registry\nname, suggested display name, state (pending, or excluded with the rule); --pending: only those',
    run: async (args, io, admin, usage) => {
      const { values } = parseCommand(args, { pending: { type: 'boolean' }, json: { type: 'boolean' }, wide: { type: 'boolean' } }, [], usage);
      if (values.help) return print(io, usage);
      const queue = await admin.bankAdmissions.queue();
      const banks = values.pending ? queue.banks.filter((bank) => bank.state === 'pending') : queue.banks;
      if (values.json) return print(io, JSON.stringify({ ...queue, banks }, null, 2));
      const head = `${queue.pending} pending, ${queue.excluded} excluded${queue.autoAdmit ? ' (BANKS_AUTO_ADMIT: new banks are published at once)' : ''}`;
      const rows = banks.map((bank) => [bank.bic, bank.suggestedName, bank.registryName, bank.state === 'pending' ? 'pending' : `excluded: ${bank.excludedBy ? ruleText(bank.excludedBy) : ''}`]);
      return print(io, rows.length === 0 ? `${head}\nNo banks wait.` : `${head}\n${table(['BIC', 'SUGGESTED NAME', 'REGISTRY NAME', 'STATE'], rows, { wide: values.wide === true, cutLast: ['BIC'] })}`);
    },
  },
  admit: {
    synopsis: '<bic>... [--name <display name>] [--comment <text>]',
    changes: true,
    summary: 'publish queued banks at the end of the list, as one version, under their suggested\nnames (--name: the display name of the one BIC given)',
    run: async (args, io, admin, usage) => {
      const { values, positionals } = parseCommand(args, { name: { type: 'string' }, comment: { type: 'string' } }, ['bic'], usage);
      if (values.help) return print(io, usage);
      const bics = splitList(positionals);
      if (values.name !== undefined && bics.length !== 1) throw new CliError(`--name names one bank: give one BIC with it\n${usage}`, 2);
      const banks = bics.map((bic) => ({ bic, ...(values.name !== undefined ? { name: String(values.name) } : {}) }));
      const outcome = await admin.bankAdmissions.admit(banks, values.comment ? { comment: String(values.comment) } : {});
      const names = outcome.changes.filter((change) => change.kind === 'added').map((change) => `+ ${change.bic} ${change.name}`);
      return print(io, [`Admitted as version ${outcome.version}: ${outcome.added.length} added`, ...names].join('\n'));
    },
  },
  exclude: {
    synopsis: '<bic>... --reason <text>',
    changes: true,
    summary: 'keep BICs out of the list across every sync and import (shown in the queue as excluded)',
    run: async (args, io, admin, usage) => {
      const { values, positionals } = parseCommand(args, { reason: { type: 'string' } }, ['bic'], usage);
      if (values.help) return print(io, usage);
      if (typeof values.reason !== 'string' || values.reason.trim() === '') throw new CliError(`An exclusion needs --reason\n${usage}`, 2);
      const outcome = await admin.bankAdmissions.exclude(splitList(positionals), values.reason);
      return print(io, `Excluded: ${outcome.changed.join(', ') || 'none'}${outcome.unchanged.length > 0 ? `; already excluded: ${outcome.unchanged.join(', ')}` : ''}`);
    },
  },
  unexclude: {
    synopsis: '<bic>...',
    changes: true,
    summary: 'lift the exclusion of BICs: back to the queue while the registry lists them',
    run: async (args, io, admin, usage) => {
      const { values, positionals } = parseCommand(args, {}, ['bic'], usage);
      if (values.help) return print(io, usage);
      const outcome = await admin.bankAdmissions.unexclude(splitList(positionals));
      return print(io, `Exclusion lifted: ${outcome.changed.join(', ') || 'none'}${outcome.unchanged.length > 0 ? `; not excluded by BIC: ${outcome.unchanged.join(', ')}` : ''}`);
    },
  },
  exclusions: {
    synopsis: '[--json] [--wide]',
    changes: false,
    summary: 'every exclusion: BICs and name rules (the default rules included), with who set them',
    run: async (args, io, admin, usage) => {
      const { values } = parseCommand(args, { json: { type: 'boolean' }, wide: { type: 'boolean' } }, [], usage);
      if (values.help) return print(io, usage);
      const { exclusions } = await admin.bankAdmissions.exclusions();
      if (values.json) return print(io, JSON.stringify(exclusions, null, 2));
      const rows = exclusions.map((rule) => [String(rule.id), rule.kind, rule.value, rule.reason, rule.createdBy.name]);
      return print(io, rows.length === 0 ? 'No exclusions.' : table(['ID', 'KIND', 'MATCHES', 'REASON', 'BY'], rows, { wide: values.wide === true, cutLast: ['ID', 'KIND'] }));
    },
  },
  exclusion: {
    synopsis: 'add <words> --reason <text> | remove <id>',
    changes: (args) => args[0] === 'add' || args[0] === 'remove',
    summary: 'add a name rule (whole words of a registry name, in order, any case: "НКО" excludes\nООО НКО "ЮМани", not СИНКО-БАНК), or remove an exclusion by its id',
    run: async (args, io, admin, usage) => {
      const { values, positionals } = parseCommand(args, { reason: { type: 'string' } }, ['action', 'value'], usage);
      if (values.help) return print(io, usage);
      const [action, value] = positionals as [string, string];
      if (action === 'remove') {
        if (!/^[0-9]{1,9}$/.test(value)) throw new CliError(`remove takes an exclusion's id (bank exclusions lists them)\n${usage}`, 2);
        await admin.bankAdmissions.removeExclusion(Number(value));
        return print(io, `Exclusion ${value} removed.`);
      }
      if (action !== 'add') throw new CliError(`exclusion takes add or remove\n${usage}`, 2);
      if (typeof values.reason !== 'string' || values.reason.trim() === '') throw new CliError(`A rule needs --reason\n${usage}`, 2);
      const rule = await admin.bankAdmissions.addRule(positionals.slice(1).join(' '), values.reason);
      return print(io, `Rule ${rule.id}: ${ruleText(rule)}`);
    },
  },
};
