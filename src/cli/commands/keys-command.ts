import type { AdminApi } from '@partner-gateway/contract/admin-api-client';
import { CliError, print, table, type CliIo } from '../cli-io.js';
import { parseCommand } from '../parse-command.js';

export const KEYS_USAGE = `Usage: partner-gateway keys <command> [options]

Commands:
  list [--json]                 the keys in service: active, and retired ones still in their grace period
  rotate [--use sig|enc] --yes  make a new key active at once (both uses unless --use); the retired key keeps
                                verifying (sig: the token lifetime) or decrypting (enc: ENC_KEY_GRACE), then drops out
  revoke <kid> --yes            drop a (compromised) key at once: it leaves the JWKS and every token signed by it
                                or JWE encrypted to it is refused; an active key is replaced by a new one first

Examples:
  partner-gateway keys list
  partner-gateway keys rotate --use enc --yes
  partner-gateway keys revoke 0b9Qm...kid --yes`;

/**
 * `partner-gateway keys ...`: lists, rotates and revokes the signing and encryption keys through the admin API.
 *
 * @example
 * ```sh
 * partner-gateway keys rotate --use sig --yes
 * ```
 */
export async function keysCommand(args: string[], io: CliIo, admin: AdminApi): Promise<void> {
  const [command, ...rest] = args;
  switch (command) {
    case 'list': {
      const usage = 'Usage: partner-gateway keys list [--json]';
      const { values } = parseCommand(rest, { json: { type: 'boolean' } }, [], usage);
      if (values.help) return print(io, usage);
      const { keys } = await admin.keys.list();
      if (values.json) return print(io, JSON.stringify(keys, null, 2));
      return print(io, table(['KID', 'USE', 'ALG', 'STATE', 'CREATED', 'USABLE UNTIL'], keys.map((k) => [k.kid, k.use, k.alg, k.active ? 'active' : 'retired', k.createdAt, k.usableUntil ?? '-'])));
    }
    case 'rotate': {
      const usage = 'Usage: partner-gateway keys rotate [--use sig|enc] --yes';
      const { values } = parseCommand(rest, { use: { type: 'string' }, yes: { type: 'boolean' } }, [], usage);
      if (values.help) return print(io, usage);
      const uses = values.use === undefined ? (['sig', 'enc'] as const) : [values.use];
      if (!uses.every((use) => use === 'sig' || use === 'enc')) throw new CliError(`--use must be sig or enc\n${usage}`, 2);
      if (!values.yes) throw new CliError(`Rotation changes the keys partners use; confirm with --yes\n${usage}`, 2);
      for (const use of uses) {
        const key = await admin.keys.rotate(use);
        print(io, `Rotated ${use}: ${key.kid} is now active`);
      }
      return;
    }
    case 'revoke': {
      const usage = 'Usage: partner-gateway keys revoke <kid> --yes';
      const { values, positionals } = parseCommand(rest, { yes: { type: 'boolean' } }, ['kid'], usage);
      if (values.help) return print(io, usage);
      if (!values.yes) throw new CliError(`Revocation refuses every token signed by the key and every JWE encrypted to it, at once; confirm with --yes\n${usage}`, 2);
      const key = await admin.keys.revoke(positionals[0]!);
      return print(io, `Revoked ${key.use} key ${key.kid}: it is out of the JWKS and refused from now on`);
    }
    case undefined:
    case '--help':
    case '-h':
    case 'help':
      return print(io, KEYS_USAGE);
    default:
      throw new CliError(`Unknown keys command ${command}\n\n${KEYS_USAGE}`, 2);
  }
}
