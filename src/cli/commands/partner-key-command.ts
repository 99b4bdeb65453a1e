import { readFile } from 'node:fs/promises';
import type { PartnerJwksView, SetPartnerJwksBody } from '@partner-gateway/contract/admin-partner-keys';
import { CliError } from '@partner-gateway/client/cli/cli-io';
import type { PartnerSubresourceCommands } from './partner-subresource-command.js';
import { isRecord } from '../../is-record.js';

/**
 * A partner's public keys for private_key_jwt, as `partner-gateway partner` handles them.
 *
 * @example
 * ```sh
 * partner-gateway partner set-jwks acme acme-public.jwks.json
 * partner-gateway partner set-jwks acme https://acme.example/.well-known/jwks.json
 * partner-gateway partner delete-jwks acme --yes
 * ```
 */
export const partnerKeyCommands: PartnerSubresourceCommands<SetPartnerJwksBody, PartnerJwksView> = {
  set: [
    {
      name: 'set-jwks',
      arguments: ['file|url'],
      help: [
        "register the partner's public keys for private_key_jwt: a file holding a JWK",
        'Set {"keys": [...]} or one JWK, or the https URL where the partner publishes them;',
        "replaces its keys (leaving one out ends the partner's current sessions)",
      ],
      noun: 'Keys',
      read: ([argument], usage) => readJwksArgument(argument!, usage),
    },
  ],
  delete: {
    name: 'delete-jwks',
    help: ["remove the partner's public keys (private_key_jwt then fails for it, and its", 'current sessions end)'],
    noun: 'Keys',
    consequence: 'Without its keys the partner cannot use private_key_jwt, and its current sessions end',
  },
  api: (admin) => ({ set: (login, body) => admin.partners.setJwks(login, body), remove: (login) => admin.partners.deleteJwks(login) }),
  viewOf: (partner) => partner.jwks,
  describe: describeJwks,
  none: '  keys:         (none)',
  examples: ['partner-gateway partner set-jwks acme acme-public.jwks.json'],
};

/** The URL and when it was last fetched, then one line per key: kid, type, alg, RFC 7638 thumbprint. */
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
  if (isRecord(parsed) && Array.isArray(parsed.keys) && parsed.keys.length === 0) throw new CliError(`${argument} holds an empty JWK Set: it needs at least one public key`, 2);
  if (isRecord(parsed) && Array.isArray(parsed.keys)) return { keys: parsed.keys as NonNullable<SetPartnerJwksBody['keys']> };
  if (isRecord(parsed) && typeof parsed.kty === 'string') return { keys: [parsed] };
  throw new CliError(`${argument} must hold a JWK Set {"keys": [...]} or one JWK`, 2);
}
