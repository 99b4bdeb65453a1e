import { readFile } from 'node:fs/promises';
import type { AdminApi } from '@partner-gateway/contract/admin-api-client';
import type { PartnerJwksView, SetPartnerJwksBody } from '@partner-gateway/contract/admin-partner-keys';
import { AUTH_METHODS, type AuthMethod, type PartnerView, type UpdatePartnerBody } from '@partner-gateway/contract/admin-partners';
import { CliError, print } from '@partner-gateway/client/cli/cli-io';
import type { Subcommand } from '@partner-gateway/client/cli/command-group';
import { parseCommand, splitList } from '@partner-gateway/client/cli/parse-command';

export const PARTNER_AUTH_EXAMPLES = `  partner-gateway partner set-jwks acme acme-public.jwks.json
  partner-gateway partner set-auth acme --methods private_key_jwt --require-bound-tokens`;

/**
 * The partner commands about keys and authentication policy (`partner-gateway partner ...`), part of
 * `partnerCommands`.
 *
 * @example
 * ```sh
 * partner-gateway partner set-jwks acme https://acme.example/.well-known/jwks.json
 * partner-gateway partner set-auth acme --methods private_key_jwt --require-bound-tokens
 * partner-gateway partner delete-jwks acme --yes
 * ```
 */
export const partnerAuthSubcommands: Record<string, Subcommand<AdminApi>> = {
  'set-jwks': {
    synopsis: '<login> <file|url>',
    summary: "register the partner's public keys for private_key_jwt: a file holding a JWK\nSet {\"keys\": [...]} or one JWK, or the https URL where the partner publishes them;\nreplaces its keys (leaving one out ends the partner's current sessions)",
    run: async (args, io, admin, usage) => {
      const { values, positionals } = parseCommand(args, {}, ['login', 'file|url'], usage);
      if (values.help) return print(io, usage);
      const view = await admin.partners.setJwks(positionals[0]!, await readJwksArgument(positionals[1]!, usage));
      return print(io, `Keys of ${positionals[0]} registered\n${describeJwks(view)}`);
    },
  },
  'delete-jwks': {
    synopsis: '<login> --yes',
    summary: "remove the partner's public keys (private_key_jwt then fails for it, and its\ncurrent sessions end)",
    run: async (args, io, admin, usage) => {
      const { values, positionals } = parseCommand(args, { yes: { type: 'boolean' } }, ['login'], usage);
      if (values.help) return print(io, usage);
      if (!values.yes) throw new CliError(`Without its keys the partner cannot use private_key_jwt, and its current sessions end; confirm with --yes\n${usage}`, 2);
      await admin.partners.deleteJwks(positionals[0]!);
      return print(io, `Keys of ${positionals[0]} removed`);
    },
  },
  'set-auth': {
    synopsis: '<login> [--methods password,private_key_jwt] [--require-bound-tokens | --no-require-bound-tokens]',
    summary: 'how the partner may authenticate, and whether its tokens must be DPoP-bound\n(taking password away or requiring binding ends its current sessions)',
    run: async (args, io, admin, usage) => {
      const options = { methods: { type: 'string', multiple: true }, 'require-bound-tokens': { type: 'boolean' }, 'no-require-bound-tokens': { type: 'boolean' } } as const;
      const { values, positionals } = parseCommand(args, options, ['login'], usage);
      if (values.help) return print(io, usage);
      const change: UpdatePartnerBody = {};
      if (values.methods !== undefined) change.authMethods = readMethods(values.methods as unknown as string[], usage);
      if (values['require-bound-tokens'] && values['no-require-bound-tokens']) throw new CliError(`Give --require-bound-tokens or --no-require-bound-tokens, not both\n${usage}`, 2);
      if (values['require-bound-tokens']) change.requireSenderConstrainedTokens = true;
      if (values['no-require-bound-tokens']) change.requireSenderConstrainedTokens = false;
      if (Object.keys(change).length === 0) throw new CliError(`Nothing to change: give --methods or a binding option\n${usage}`, 2);
      const partner = await admin.partners.update(positionals[0]!, change);
      return print(io, `Partner ${partner.login}\n${describeAuth(partner)}`);
    },
  },
};

/** The partner's methods, binding and keys, as `partner show` prints them under the other settings. */
export function describeAuth(partner: PartnerView): string {
  return [
    `  auth methods: ${partner.authMethods.join(', ')}`,
    `  bound tokens: ${partner.requireSenderConstrainedTokens ? 'required (DPoP)' : 'not required'}`,
    partner.jwks === null ? '  keys:         (none)' : describeJwks(partner.jwks),
  ].join('\n');
}

function describeJwks(jwks: PartnerJwksView): string {
  const lines: string[] = [];
  if (jwks.jwksUri !== null) lines.push(`  jwks URL:     ${jwks.jwksUri}`, `  last fetched: ${jwks.fetchedAt ?? '(never)'}`);
  if (jwks.keys.length === 0) lines.push('  keys:         (none)');
  jwks.keys.forEach((key, index) => {
    const kind = key.kty === 'RSA' ? `RSA ${key.size}` : `${key.kty} ${key.crv}`;
    lines.push(`  ${index === 0 ? 'keys:        ' : '             '} ${key.kid}  ${kind}  ${key.alg}  ${key.thumbprint}`);
  });
  return lines.join('\n');
}

/** An http(s) URL registers a jwksUri; anything else is a file holding a JWK Set or one JWK. */
async function readJwksArgument(argument: string, usage: string): Promise<SetPartnerJwksBody> {
  if (/^https?:\/\//i.test(argument)) return { jwksUri: argument };
  let text: string;
  try {
    text = await readFile(argument, 'utf8');
  } catch (error) {
    throw new CliError(`Cannot read ${argument}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}\n${usage}`, 2);
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new CliError(`${argument} is not JSON: it must hold a JWK Set {"keys": [...]} or one JWK`, 2);
  }
  // An empty set would only meet the schema's union refusal (keys or jwksUri); say what is wrong instead.
  if (isObject(parsed) && Array.isArray(parsed.keys) && parsed.keys.length === 0) throw new CliError(`${argument} holds an empty JWK Set: it needs at least one public key`, 2);
  if (isObject(parsed) && Array.isArray(parsed.keys)) return { keys: parsed.keys as NonNullable<SetPartnerJwksBody['keys']> };
  if (isObject(parsed) && typeof parsed.kty === 'string') return { keys: [parsed] };
  throw new CliError(`${argument} must hold a JWK Set {"keys": [...]} or one JWK`, 2);
}

function readMethods(values: string[], usage: string): AuthMethod[] {
  const methods = splitList(values);
  const unknown = methods.filter((method) => !(AUTH_METHODS as readonly string[]).includes(method));
  if (methods.length === 0 || unknown.length > 0) throw new CliError(`--methods must list some of ${AUTH_METHODS.join(', ')}${unknown.length > 0 ? ` (unknown: ${unknown.join(', ')})` : ''}\n${usage}`, 2);
  return [...new Set(methods)] as AuthMethod[];
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
