import type { AdminApi } from '@partner-gateway/contract/admin-api-client';
import { CliError, print, table } from '@partner-gateway/client/cli/cli-io';
import type { Subcommand } from '@partner-gateway/client/cli/command-group';
import { parseCommand } from '@partner-gateway/client/cli/parse-command';

/**
 * `partner users|invite|remove-user`: a partner's people in the portal (docs/portal-security.md). The invitation link is printed
 * once: give it to the person by a channel you trust.
 *
 * @example
 * ```sh
 * partner-gateway partner invite acme anna@acme.example --role partner-admin
 * partner-gateway partner users acme
 * ```
 */
export const partnerUserCommands: Record<string, Subcommand<AdminApi>> = {
  users: {
    synopsis: '<login> [--json]',
    changes: false,
    summary: "the partner's people in the portal and their pending invitations",
    run: async (args, io, admin, usage) => {
      const { values, positionals } = parseCommand(args, { json: { type: 'boolean' } }, ['login'], usage);
      if (values.help) return print(io, usage);
      const list = await admin.partnerUsers.list(positionals[0]!);
      if (values.json) return print(io, JSON.stringify(list, null, 2));
      if (list.users.length === 0 && list.invitations.length === 0) return print(io, 'No people and no pending invitations.');
      const rows = [
        ...list.users.map((user) => [user.name, user.role, `${user.passkeys} passkey(s)`, user.lastSignInAt ?? 'never signed in']),
        ...list.invitations.map((invitation) => [invitation.name, invitation.role, invitation.recovery ? 'recovery invited' : 'invited', `until ${invitation.expiresAt}`]),
      ];
      return print(io, table(['NAME', 'ROLE', 'STATE', 'LAST SIGN-IN'], rows));
    },
  },
  invite: {
    synopsis: '<login> <name> [--role partner-admin|partner-developer]',
    changes: true,
    summary: 'invite a person to the partner portal (a single-use link, 72 hours; partner-admin by default)',
    run: async (args, io, admin, usage) => {
      const { values, positionals } = parseCommand(args, { role: { type: 'string' } }, ['login', 'name'], usage);
      if (values.help) return print(io, usage);
      const role = values.role === undefined ? 'partner-admin' : String(values.role);
      if (role !== 'partner-admin' && role !== 'partner-developer') throw new CliError(`--role is partner-admin or partner-developer\n${usage}`, 2);
      const { invitation, url } = await admin.partnerUsers.invite(positionals[0]!, { name: positionals[1]!, role });
      const kind = invitation.recovery ? 'Recovery invitation (a new passkey, the same role)' : 'Invitation';
      return print(io, `${kind} for ${invitation.name} (${invitation.role}), valid until ${invitation.expiresAt}.\nLink (shown once; give it to the person only): ${url}`);
    },
  },
  'remove-user': {
    synopsis: '<login> <id>',
    changes: true,
    summary: 'remove one of the partner\'s people from the portal (their passkeys and sessions end at once)',
    run: async (args, io, admin, usage) => {
      const { values, positionals } = parseCommand(args, {}, ['login', 'id'], usage);
      if (values.help) return print(io, usage);
      await admin.partnerUsers.remove(positionals[0]!, positionals[1]!);
      return print(io, `Removed ${positionals[1]} from ${positionals[0]}'s portal`);
    },
  },
};
