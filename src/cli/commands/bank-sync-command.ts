import type { AdminApi } from '@partner-gateway/contract/admin-api-client';
import type { BankSyncRun } from '@partner-gateway/contract/admin-bank-sync';
import { CliError, print, table } from '@partner-gateway/client/cli/cli-io';
import type { Subcommand } from '@partner-gateway/client/cli/command-group';
import { parseCommand } from '@partner-gateway/client/cli/parse-command';
import { askConfirmation } from '../ask-confirmation.js';
import { changeLines } from './bank-changes-text.js';

/** One run in words: `run 7 (manual, alice): applied as version 12: 1 added, 1 changed, 1 removed`. */
function runText(run: BankSyncRun): string {
  const what =
    run.outcome === 'applied'
      ? `applied as version ${run.version}`
      : run.outcome === 'held'
        ? `held: ${run.hold?.reason} (${run.hold?.status}${run.version !== null ? `, version ${run.version}` : ''})`
        : run.outcome === 'failed'
          ? `failed: ${run.error}`
          : run.outcome === 'started'
            ? 'running'
            : 'no change';
  return `Run ${run.id} (${run.trigger}, ${run.author.name}, ${run.finishedAt ?? run.startedAt}): ${what}${run.outcome === 'failed' || run.outcome === 'unchanged' || run.outcome === 'started' ? '' : `: ${run.added} added, ${run.changed} changed, ${run.removed} removed`}`;
}

/** `bank sync`, `bank sync-status`, `bank pending approve|reject`: the registry sync (BANKS_SYNC_URL). */
export const bankSyncCommands: Record<string, Subcommand<AdminApi>> = {
  sync: {
    synopsis: '[--dry-run] [--yes] [--json]',
    changes: true,
    summary:
      'run the registry sync now (BANKS_SYNC_URL): prints what it will change and, in a\nterminal, asks first; --dry-run: only that. Exit 4 when the removal guard held it',
    run: async (args, io, admin, usage) => {
      const { values } = parseCommand(args, { 'dry-run': { type: 'boolean' }, yes: { type: 'boolean' }, json: { type: 'boolean' } }, [], usage);
      if (values.help) return print(io, usage);
      const preview = await admin.bankSync.preview();
      if (values.json && values['dry-run']) return print(io, JSON.stringify(preview, null, 2));
      const counts = `${preview.added.length} added, ${preview.changed.length} changed, ${preview.removed.length} removed`;
      print(io, [`Syncing ${preview.source} (${preview.received} SBP head offices) into version ${preview.baseVersion}: ${counts}`, ...changeLines(preview.changes)].join('\n'));
      if (preview.holdReason) print(io, `The removal guard will hold this run: ${preview.holdReason}. An operator then approves or rejects it (bank pending).`);
      if (values['dry-run'] || preview.changes.length === 0) return;
      if (!values.yes && io.stdin.isTTY && !(await askConfirmation(io, 'Run the sync now?'))) throw new CliError('Nothing changed.', 1);
      const run = await admin.bankSync.run();
      if (values.json) print(io, JSON.stringify(run, null, 2));
      else print(io, runText(run));
      if (run.outcome === 'held') throw new CliError(`Held as run ${run.id}: partner-gateway bank pending approve ${run.id} (or reject)`, 4);
    },
  },
  'sync-status': {
    synopsis: '[--json] [--wide]',
    changes: false,
    summary: "the registry sync's settings, its last runs, and the held run waiting for a decision",
    run: async (args, io, admin, usage) => {
      const { values } = parseCommand(args, { json: { type: 'boolean' }, wide: { type: 'boolean' } }, [], usage);
      if (values.help) return print(io, usage);
      const status = await admin.bankSync.status();
      if (values.json) return print(io, JSON.stringify(status, null, 2));
      const head = status.configured
        ? `Source ${status.source}, every ${status.intervalSeconds} s; held past ${status.maxRemovals} removals or under ${status.minBanks} banks. Last success: ${status.lastSuccessAt ?? 'never'}`
        : 'The registry sync is off: BANKS_SYNC_URL is not set.';
      const rows = status.runs.map((run) => [String(run.id), run.finishedAt ?? run.startedAt, run.trigger, run.author.name, run.outcome + (run.hold ? ` (${run.hold.status})` : ''), run.version === null ? '' : String(run.version), run.error ?? run.hold?.reason ?? `+${run.added} ~${run.changed} -${run.removed}`]);
      const runs = rows.length === 0 ? 'No runs yet.' : table(['RUN', 'WHEN', 'TRIGGER', 'WHO', 'OUTCOME', 'VERSION', 'WHAT'], rows, { wide: values.wide === true, cutLast: ['RUN', 'WHEN', 'VERSION'] });
      const pending = status.pending ? `\nWaiting for a decision: ${runText(status.pending)}\n  partner-gateway bank pending show` : '';
      return print(io, `${head}\n${runs}${pending}`);
    },
  },
  pending: {
    synopsis: 'show | approve [<run>] [--yes] [--comment <text>] | reject [<run>] [--comment <text>]',
    changes: (args) => args[0] === 'approve' || args[0] === 'reject',
    summary: 'the sync run the removal guard held: show its every change, approve it (applied exactly\nas previewed) or reject it',
    run: async (args, io, admin, usage) => {
      const { values, positionals } = parseCommand(args, { yes: { type: 'boolean' }, comment: { type: 'string' }, json: { type: 'boolean' } }, ['action'], usage);
      if (values.help) return print(io, usage);
      const action = positionals[0];
      if (action !== 'show' && action !== 'approve' && action !== 'reject') throw new CliError(`pending takes show, approve or reject\n${usage}`, 2);
      const { pending } = await admin.bankSync.status();
      if (!pending) throw new CliError('No sync run is waiting for a decision.', 1);
      if (positionals[1] !== undefined && positionals[1] !== String(pending.id)) throw new CliError(`Run ${positionals[1]} is not the held run waiting for a decision (that is run ${pending.id})`, 1);
      if (action === 'show') {
        if (values.json) return print(io, JSON.stringify(pending, null, 2));
        return print(io, [runText(pending), ...changeLines(pending.changes)].join('\n'));
      }
      const comment = values.comment === undefined ? undefined : String(values.comment);
      if (action === 'reject') return print(io, runText(await admin.bankSync.reject(pending.id, comment)));
      print(io, [runText(pending), ...changeLines(pending.changes)].join('\n'));
      if (!values.yes) {
        if (!io.stdin.isTTY) throw new CliError('Approving must be confirmed: pass --yes (or run in a terminal to be asked)', 2);
        if (!(await askConfirmation(io, `Apply these ${pending.changes.length} changes over version ${pending.baseVersion}?`))) throw new CliError('Nothing changed.', 1);
      }
      return print(io, runText(await admin.bankSync.approve(pending.id, comment)));
    },
  },
};
