import type { AdminApi } from '@partner-gateway/contract/admin-api-client';
import { CliError, print, table } from '@partner-gateway/client/cli/cli-io';
import type { CommandGroup } from '@partner-gateway/client/cli/command-group';
import { parseCommand } from '@partner-gateway/client/cli/parse-command';

/**
 * `partner-gateway keys ...`: lists, rotates and revokes the signing and encryption keys through the admin API.
 *
 * @example
 * ```sh
 * partner-gateway keys rotate --use sig --yes
 * ```
 */
export const keysCommands: CommandGroup<AdminApi> = {
  command: 'partner-gateway keys',
  summary: 'list, rotate and revoke the signing and encryption keys',
  subcommands: {
    list: {
      synopsis: '[--json] [--wide]',
      changes: false,
      summary: 'the keys in service: active, and retired ones still in their grace period',
      run: async (args, io, admin, usage) => {
        const { values } = parseCommand(args, { json: { type: 'boolean' }, wide: { type: 'boolean' } }, [], usage);
        if (values.help) return print(io, usage);
        const { keys } = await admin.keys.list();
        if (values.json) return print(io, JSON.stringify(keys, null, 2));
        return print(io, table(['KID', 'USE', 'ALG', 'STATE', 'CREATED', 'USABLE UNTIL'], keys.map((k) => [k.kid, k.use, k.alg, k.active ? 'active' : 'retired', k.createdAt, k.usableUntil ?? '-']), { wide: values.wide === true, cutLast: ['USE', 'ALG', 'STATE', 'CREATED', 'USABLE UNTIL'] }));
      },
    },
    rotate: {
      synopsis: '[--use sig|enc] --yes',
      changes: true,
      summary: 'make a new key active at once (both uses unless --use); the retired key keeps verifying\n(sig: the token lifetime) or decrypting (enc: ENC_KEY_GRACE), then drops out',
      run: async (args, io, admin, usage) => {
        const { values } = parseCommand(args, { use: { type: 'string' }, yes: { type: 'boolean' } }, [], usage);
        if (values.help) return print(io, usage);
        const uses = values.use === undefined ? (['sig', 'enc'] as const) : [values.use];
        if (!uses.every((use) => use === 'sig' || use === 'enc')) throw new CliError(`--use must be sig or enc\n${usage}`, 2);
        if (!values.yes) throw new CliError(`Rotation changes the keys partners use; confirm with --yes\n${usage}`, 2);
        for (const use of uses) {
          const key = await admin.keys.rotate(use);
          print(io, `Rotated ${use}: ${key.kid} is now active`);
        }
      },
    },
    revoke: {
      synopsis: '<kid> --yes',
      changes: true,
      summary: 'drop a (compromised) key at once: it leaves the JWKS and every token signed by it or JWE\nencrypted to it is refused; an active key is replaced by a new one first',
      run: async (args, io, admin, usage) => {
        const { values, positionals } = parseCommand(args, { yes: { type: 'boolean' } }, ['kid'], usage);
        if (values.help) return print(io, usage);
        if (!values.yes) throw new CliError(`Revocation refuses every token signed by the key and every JWE encrypted to it, at once; confirm with --yes\n${usage}`, 2);
        const key = await admin.keys.revoke(positionals[0]!);
        return print(io, `Revoked ${key.use} key ${key.kid}: it is out of the JWKS and refused from now on`);
      },
    },
  },
  epilogue: `A key id may start with - (it is base64url): put it after --, as options end there.

Examples:
  partner-gateway keys list
  partner-gateway keys rotate --use enc --yes
  partner-gateway keys revoke --yes -- 0b9Qm...kid`,
};
