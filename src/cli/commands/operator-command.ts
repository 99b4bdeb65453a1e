import type { AdminApi } from '@partner-gateway/contract/admin-api-client';
import { OPERATOR_ROLES, type OperatorRole } from '@partner-gateway/contract/admin-permissions';
import { CliError, print, table } from '@partner-gateway/client/cli/cli-io';
import type { CommandGroup, Subcommand } from '@partner-gateway/client/cli/command-group';
import { parseCommand } from '@partner-gateway/client/cli/parse-command';

const JSON_OPTION = { json: { type: 'boolean' } } as const;

/** disable and enable: the same change, to the other status. */
const setStatus = (status: 'disabled' | 'active', summary: string): Subcommand<AdminApi> => ({
  synopsis: '<id>',
  changes: true,
  summary,
  run: async (args, io, admin, usage) => {
    const { values, positionals } = parseCommand(args, {}, ['id'], usage);
    if (values.help) return print(io, usage);
    const updated = await admin.operators.update(positionals[0]!, { status });
    return print(io, status === 'disabled' ? `${updated.name} is disabled: its tokens and sessions are refused from now on.` : `${updated.name} is active again.`);
  },
});

/**
 * `partner-gateway operator ...`: the people who use the admin API, through it.
 *
 * @example
 * ```sh
 * partner-gateway operator add alice --role operator
 * ```
 */
export const operatorCommands: CommandGroup<AdminApi> = {
  command: 'partner-gateway operator',
  summary: 'manage operators',
  subcommands: {
    whoami: {
      synopsis: '[--json]',
      changes: false,
      summary: 'who your credential acts as: operator, role, credential, permissions',
      run: async (args, io, admin, usage) => {
        const { values } = parseCommand(args, JSON_OPTION, [], usage);
        if (values.help) return print(io, usage);
        const me = await admin.session.me();
        if (values.json) return print(io, JSON.stringify(me, null, 2));
        return print(io, `${me.name} (${me.id}), role ${me.role ?? 'bootstrap: every permission'}, with ${me.credential === 'token' ? 'a personal token' : me.credential === 'sso' ? 'single sign-on' : 'ADMIN_TOKEN'}\npermissions: ${me.permissions.join(', ')}`);
      },
    },
    list: {
      synopsis: '[--json] [--wide]',
      changes: false,
      summary: 'every operator, its role, status and last use',
      run: async (args, io, admin, usage) => {
        const { values } = parseCommand(args, { ...JSON_OPTION, wide: { type: 'boolean' } }, [], usage);
        if (values.help) return print(io, usage);
        const { operators } = await admin.operators.list();
        if (values.json) return print(io, JSON.stringify(operators, null, 2));
        const rows = operators.map((o) => [o.id, o.name, o.role, o.status, o.source === 'sso' ? 'single sign-on' : 'tokens', o.lastUsedAt ?? 'never']);
        return print(io, table(['ID', 'NAME', 'ROLE', 'STATUS', 'SIGNS IN WITH', 'LAST USED'], rows, { wide: values.wide === true, keep: ['ID'] }));
      },
    },
    show: {
      synopsis: '<id>',
      changes: false,
      summary: 'one operator',
      run: async (args, io, admin, usage) => {
        const { values, positionals } = parseCommand(args, {}, ['id'], usage);
        if (values.help) return print(io, usage);
        return print(io, JSON.stringify(await admin.operators.get(positionals[0]!), null, 2));
      },
    },
    add: {
      synopsis: '<name> --role viewer|operator|security',
      changes: true,
      summary: 'a new operator; then give it a token: partner-gateway token create <id> --label ...',
      run: async (args, io, admin, usage) => {
        const { values, positionals } = parseCommand(args, { role: { type: 'string' } }, ['name'], usage);
        if (values.help) return print(io, usage);
        const created = await admin.operators.create({ name: positionals[0]!, role: readRole(values.role, usage) });
        return print(io, `Created operator ${created.name} (${created.id}) with the ${created.role} role.\nGive it a personal token: partner-gateway token create ${created.id} --label <what for>`);
      },
    },
    'set-role': {
      synopsis: '<id> viewer|operator|security',
      changes: true,
      summary: 'change its role (its console sessions end)',
      run: async (args, io, admin, usage) => {
        const { values, positionals } = parseCommand(args, {}, ['id', 'role'], usage);
        if (values.help) return print(io, usage);
        const updated = await admin.operators.update(positionals[0]!, { role: readRole(positionals[1], usage) });
        return print(io, `${updated.name} now has the ${updated.role} role.`);
      },
    },
    rename: {
      synopsis: '<id> <name>',
      changes: true,
      summary: 'change the name the audit trail shows',
      run: async (args, io, admin, usage) => {
        const { values, positionals } = parseCommand(args, {}, ['id', 'name'], usage);
        if (values.help) return print(io, usage);
        const updated = await admin.operators.update(positionals[0]!, { name: positionals[1]! });
        return print(io, `The operator ${updated.id} is now named ${updated.name}.`);
      },
    },
    disable: setStatus('disabled', 'refuse all its tokens and sessions, at once, on every instance'),
    enable: setStatus('active', 'allow them again'),
  },
  epilogue: `Roles: viewer reads everything but secrets; operator changes partners (not their credentials) and the bank list;
security changes credentials, keys and operators, exports the audit trail and sets maker-checker.

Examples:
  partner-gateway operator add alice --role operator
  partner-gateway operator set-role 3f1c... security`,
};

function readRole(value: unknown, usage: string): OperatorRole {
  if (typeof value === 'string' && (OPERATOR_ROLES as readonly string[]).includes(value)) return value as OperatorRole;
  throw new CliError(`The role must be one of ${OPERATOR_ROLES.join(', ')}\n${usage}`, 2);
}
