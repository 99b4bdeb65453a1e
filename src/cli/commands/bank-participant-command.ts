import { readFile } from 'node:fs/promises';
import { basename, extname } from 'node:path';
import type { AdminApi } from '@partner-gateway/contract/admin-api-client';
import type { ParticipantsMatching } from '@partner-gateway/contract/admin-bank-participants';
import { CliError, print, table } from '@partner-gateway/client/cli/cli-io';
import type { Subcommand } from '@partner-gateway/client/cli/command-group';
import { parseCommand, splitList } from '@partner-gateway/client/cli/parse-command';
import { askConfirmation } from '../ask-confirmation.js';
import { outcomeText } from './bank-changes-text.js';

const TYPES: Readonly<Record<string, string>> = { json: 'application/json', csv: 'text/csv' };

/** How a reading matched, in lines: counts, proposals, and what stayed unmatched on either side. */
export function matchingText(matching: ParticipantsMatching): string {
  const lines = [
    `${matching.received} participants: ${matching.matchedByBic} matched by BIC, ${matching.matchedByMemberId} by member id, ${matching.proposals.length} proposed by name, ${matching.unmatchedParticipants.length} unmatched; ${matching.unmatchedBanks.length} banks unmatched`,
    ...matching.proposals.map((proposal) => `? ${proposal.bic} ${proposal.bankName} <- ${proposal.memberId} ${proposal.participantName} (bank confirm-match ${proposal.bic})`),
    ...matching.keptOperatorValues.map((kept) => `! ${kept.bic}: ${kept.field} ${kept.kept ?? '—'} kept (set by an operator); the list offers ${kept.offered}`),
    ...matching.unmatchedParticipants.map((entry) => `  participant ${entry.memberId} ${entry.name}${entry.bic ? ` (BIC ${entry.bic})` : ''}: no bank`),
    ...matching.unmatchedBanks.map((bank) => `  bank ${bank.bic} ${bank.name}: not in the list`),
  ];
  return lines.join('\n');
}

/**
 * `bank participants`, `bank import-participants`, `bank sync-participants`, `bank confirm-match`, `bank
 * reject-match`: member ids from the settlement bank's B2C participant list (issue 34). Each change is a checked
 * action: under maker-checker it prints the proposal and exits 4.
 *
 * @example
 * ```sh
 * partner-gateway bank import-participants b2c-participants.csv --dry-run
 * partner-gateway bank confirm-match 044525999 045004777
 * ```
 */
export const bankParticipantCommands: Record<string, Subcommand<AdminApi>> = {
  participants: {
    synopsis: '[--json] [--wide]',
    changes: false,
    summary: 'the participant list: its sync, the latest readings and the name matches waiting\nfor confirmation (or rejected)',
    run: async (args, io, admin, usage) => {
      const { values } = parseCommand(args, { json: { type: 'boolean' }, wide: { type: 'boolean' } }, [], usage);
      if (values.help) return print(io, usage);
      const status = await admin.bankParticipants.status();
      if (values.json) return print(io, JSON.stringify(status, null, 2));
      const sync = status.configured ? `sync from ${status.source} every ${status.intervalSeconds} s` : 'no sync (BANKS_PARTICIPANTS_URL unset)';
      const runs = status.runs.slice(0, 5).map((run) => [String(run.id), run.finishedAt, run.trigger, run.outcome, run.version === null ? '' : String(run.version), run.error ?? '']);
      const proposals = status.proposals.map((proposal) => [proposal.bic, proposal.bankName, proposal.memberId, proposal.participantName, proposal.status]);
      return print(io, [
        `${sync}${status.required ? '; banks the list leaves out are kept from partners' : ''}`,
        runs.length === 0 ? 'No readings yet.' : table(['RUN', 'AT', 'TRIGGER', 'OUTCOME', 'VERSION', 'PROBLEM'], runs, { wide: values.wide === true, cutLast: ['RUN'] }),
        proposals.length === 0 ? 'No proposals.' : table(['BIC', 'BANK', 'MEMBER ID', 'PARTICIPANT', 'STATUS'], proposals, { wide: values.wide === true, cutLast: ['BIC', 'MEMBER ID'] }),
      ].join('\n'));
    },
  },
  'import-participants': {
    synopsis: '<file> [--dry-run] [--yes] [--comment <text>] [--type json|csv]',
    changes: true,
    summary: "import the settlement bank's B2C participant list (memberId, name, nameEn, bic): member\nids by BIC applied, name matches proposed; prints the matching and, in a terminal, asks first",
    run: async (args, io, admin, usage) => {
      const { values, positionals } = parseCommand(args, { 'dry-run': { type: 'boolean' }, yes: { type: 'boolean' }, comment: { type: 'string' }, type: { type: 'string' } }, ['file'], usage);
      if (values.help) return print(io, usage);
      const file = positionals[0]!;
      const contentType = TYPES[String(values.type ?? extname(file).slice(1)).toLowerCase()];
      if (!contentType) throw new CliError(`Cannot tell the format of ${file}: name it .json or .csv, or pass --type\n${usage}`, 2);
      let bytes: Buffer;
      try {
        bytes = await readFile(file);
      } catch (error) {
        throw new CliError(`Cannot read ${file}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`, 2);
      }
      const body = { bytes: new Uint8Array(bytes), contentType };
      const preview = await admin.bankParticipants.import(body, { dryRun: true });
      print(io, `${outcomeText(preview, `Reading ${basename(file)} into version ${preview.baseVersion}`)}\n${matchingText(preview)}`);
      if (values['dry-run'] || (preview.changes.length === 0 && preview.proposals.length === 0)) return;
      if (!values.yes && io.stdin.isTTY && !(await askConfirmation(io, `Apply these ${preview.changes.length} changes as version ${preview.baseVersion + 1}?`))) throw new CliError('Nothing changed.', 1);
      const report = await admin.bankParticipants.import(body, { baseVersion: preview.baseVersion, fileName: basename(file), ...(values.comment ? { comment: String(values.comment) } : {}) });
      return print(io, `${report.applied ? `Applied as version ${report.version}` : 'No change to the list'}: ${report.changed.length} banks changed, ${report.proposals.length} name matches wait for confirmation`);
    },
  },
  'sync-participants': {
    synopsis: '',
    changes: true,
    summary: 'read the participant list at BANKS_PARTICIPANTS_URL now',
    run: async (args, io, admin, usage) => {
      const { values } = parseCommand(args, {}, [], usage);
      if (values.help) return print(io, usage);
      const run = await admin.bankParticipants.sync();
      return print(io, [`Run ${run.id}: ${run.outcome}${run.version === null ? '' : ` (version ${run.version})`}${run.error ? `: ${run.error}` : ''}`, ...(run.matching ? [matchingText(run.matching)] : [])].join('\n'));
    },
  },
  'confirm-match': {
    synopsis: '<bic>... [--comment <text>]',
    changes: true,
    summary: 'confirm name matches of the participant list: the banks take their member ids, as one version',
    run: async (args, io, admin, usage) => {
      const { values, positionals } = parseCommand(args, { comment: { type: 'string' } }, ['bic'], usage);
      if (values.help) return print(io, usage);
      const outcome = await admin.bankParticipants.confirm(splitList(positionals), values.comment ? { comment: String(values.comment) } : {});
      return print(io, outcomeText(outcome, `Confirmed as version ${outcome.version}`));
    },
  },
  'reject-match': {
    synopsis: '<bic>...',
    changes: true,
    summary: 'reject name matches of the participant list (never proposed again for that member id)',
    run: async (args, io, admin, usage) => {
      const { values, positionals } = parseCommand(args, {}, ['bic'], usage);
      if (values.help) return print(io, usage);
      const outcome = await admin.bankParticipants.reject(splitList(positionals));
      return print(io, `Rejected: ${outcome.changed.join(', ') || 'none'}${outcome.unchanged.length > 0 ? `; no proposal waits for: ${outcome.unchanged.join(', ')}` : ''}`);
    },
  },
};
