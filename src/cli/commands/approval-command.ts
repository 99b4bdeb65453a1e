import type { AdminApi } from '@partner-gateway/contract/admin-api-client';
import type { ProposalStatus, ProposalView } from '@partner-gateway/contract/admin-approvals';
import { CliError, print, table } from '@partner-gateway/client/cli/cli-io';
import type { CommandGroup } from '@partner-gateway/client/cli/command-group';
import { parseCommand, splitList } from '@partner-gateway/client/cli/parse-command';

const STATUSES: readonly ProposalStatus[] = ['pending', 'approved', 'rejected', 'expired', 'conflict'];

/**
 * `partner-gateway approval ...`: maker-checker proposals and settings, through the admin API.
 *
 * @example
 * ```sh
 * partner-gateway approval approve 5b9e6a1c-...
 * ```
 */
export const approvalCommands: CommandGroup<AdminApi> = {
  command: 'partner-gateway approval',
  summary: 'maker-checker',
  subcommands: {
    list: {
      synopsis: '[--status pending|approved|rejected|expired|conflict] [--json] [--wide]',
      changes: false,
      summary: 'proposals, newest first',
      run: async (args, io, admin, usage) => {
        const { values } = parseCommand(args, { status: { type: 'string' }, json: { type: 'boolean' }, wide: { type: 'boolean' } }, [], usage);
        if (values.help) return print(io, usage);
        if (values.status !== undefined && !(STATUSES as readonly unknown[]).includes(values.status)) throw new CliError(`--status must be one of ${STATUSES.join(', ')}\n${usage}`, 2);
        const { proposals } = await admin.approvals.list(values.status ? { status: values.status as ProposalStatus } : {});
        if (values.json) return print(io, JSON.stringify(proposals, null, 2));
        const rows = proposals.map((p) => [p.id, p.action, p.target, p.proposedBy.name, p.proposedAt, p.status, p.decidedBy?.name ?? '-']);
        return print(io, table(['ID', 'ACTION', 'TARGET', 'PROPOSED BY', 'PROPOSED', 'STATUS', 'DECIDED BY'], rows, { wide: values.wide === true, keep: ['ID', 'ACTION'] }));
      },
    },
    show: {
      synopsis: '<id>',
      changes: false,
      summary: 'a proposal: its request and what approving it will do',
      run: async (args, io, admin, usage) => {
        const { values, positionals } = parseCommand(args, {}, ['id'], usage);
        if (values.help) return print(io, usage);
        return print(io, describe(await admin.approvals.get(positionals[0]!)));
      },
    },
    approve: {
      synopsis: '<id>',
      changes: true,
      summary: 'apply it exactly as previewed (409 if what it was based on changed)',
      run: async (args, io, admin, usage) => {
        const { values, positionals } = parseCommand(args, {}, ['id'], usage);
        if (values.help) return print(io, usage);
        const approved = await admin.approvals.approve(positionals[0]!);
        return print(io, `Approved and applied: ${approved.action} of ${approved.target} (proposed by ${approved.proposedBy.name}).`);
      },
    },
    reject: {
      synopsis: '<id> [--reason <text>]',
      changes: true,
      summary: 'refuse it (its proposer may withdraw it so)',
      run: async (args, io, admin, usage) => {
        const { values, positionals } = parseCommand(args, { reason: { type: 'string' } }, ['id'], usage);
        if (values.help) return print(io, usage);
        const rejected = await admin.approvals.reject(positionals[0]!, typeof values.reason === 'string' ? { reason: values.reason } : {});
        return print(io, `Rejected: ${rejected.action} of ${rejected.target}${rejected.reason ? ` (${rejected.reason})` : ''}.`);
      },
    },
    settings: {
      synopsis: '[--require <action,...> | --none] [--json] [--wide]',
      changes: (args) => args.some((arg) => arg.startsWith('--require') || arg === '--none'),
      summary: 'which actions need a second operator; with --require or --none, set them\n(security; the list replaces the previous one)',
      run: async (args, io, admin, usage) => {
        const { values } = parseCommand(args, { require: { type: 'string', multiple: true }, none: { type: 'boolean' }, json: { type: 'boolean' }, wide: { type: 'boolean' } }, [], usage);
        if (values.help) return print(io, usage);
        if (values.none && values.require !== undefined) throw new CliError(`--require and --none exclude each other\n${usage}`, 2);
        const required = values.none ? [] : values.require === undefined ? undefined : splitList(values.require as unknown as string[]);
        const { actions } = required === undefined ? await admin.approvals.settings() : await admin.approvals.setSettings(required);
        if (values.json) return print(io, JSON.stringify(actions, null, 2));
        return print(io, table(['ACTION', 'NEEDS APPROVAL', 'APPROVED WITH', 'WHAT'], actions.map((a) => [a.action, a.required ? 'yes' : 'no', a.permission, a.description]), { wide: values.wide === true }));
      },
    },
  },
  epilogue: `A change that needs approval is not made when asked: the command says so, prints the proposal's id and exits
with code 4. Another operator with the action's permission approves it; nobody approves their own.

Examples:
  partner-gateway approval list --status pending
  partner-gateway approval approve 5b9e...
  partner-gateway approval settings --require key.revoke,partner.delete,approvals.configure`,
};

function describe(proposal: ProposalView): string {
  return [
    `${proposal.action} of ${proposal.target}: ${proposal.status}`,
    `proposed by ${proposal.proposedBy.name} (${proposal.proposedBy.id}) at ${proposal.proposedAt}; expires ${proposal.expiresAt}`,
    ...(proposal.decidedBy ? [`decided by ${proposal.decidedBy.name} at ${proposal.decidedAt}${proposal.reason ? `: ${proposal.reason}` : ''}`] : []),
    'what approving it does:',
    JSON.stringify(proposal.preview, null, 2),
  ].join('\n');
}
