import { readFileSync } from 'node:fs';
import { PartnerClient } from '../partner-client.js';
import type { PrivateKeyInput } from '../signing-key.js';
import type { ClientTls } from '../tls-fetch.js';
import { CliError, type CliIo } from './cli-io.js';
import { readPassword } from './read-password.js';

/**
 * How the partner commands authenticate, from its options: the API password (prompted, or
 * --password-stdin), the partner's private key (--private-key, --kid), or its client certificate alone
 * (--cert, --key: mutual TLS, RFC 8705); --cert with either of the others only presents the certificate.
 */
export function required(values: Record<string, unknown>, name: string, usage: string): string {
  const value = values[name];
  if (typeof value !== 'string' || value === '') throw new CliError(`--${name} is required\n${usage}`, 2);
  return value;
}

export async function connect(io: CliIo, values: Record<string, unknown>, authUrl: string, apiUrl: string, usage: string): Promise<PartnerClient> {
  const login = required(values, 'login', usage);
  // Checked before the password prompt, so that a typo does not cost the operator a password entry.
  for (const [flag, url] of [['--auth-url', authUrl], ['--api-url', apiUrl]] as const) {
    if (!/^https?:\/\/[^/]/i.test(url) || !URL.canParse(url)) throw new CliError(`${flag} must be an http or https URL, not ${url}`, 2);
  }
  const provider = values.provider as string | undefined;
  const common = { authUrl, apiUrl, login, ...(provider ? { provider } : {}), ...(values.dpop ? { dpop: true } : {}) };
  const keyFile = values['private-key'] as string | undefined;
  const kid = values.kid as string | undefined;
  if (keyFile === undefined && kid !== undefined) throw new CliError('--kid goes with --private-key', 2);
  const tls = readTls(values);
  if (keyFile === undefined && tls && !values['password-stdin']) {
    // The certificate is the credential: client credentials at the token endpoint, the token bound to it.
    return new PartnerClient({ ...common, tls, auth: { tlsClientAuth: true } });
  }
  if (keyFile === undefined) {
    const password = await readPassword(io, Boolean(values['password-stdin']), `API password of ${login}: `);
    return new PartnerClient({ ...common, ...(tls ? { tls } : {}), password });
  }
  if (values['password-stdin']) throw new CliError('Use --password-stdin or --private-key, not both', 2);
  if (!kid) throw new CliError('--private-key needs --kid <kid>: the kid under which its public key is registered', 2);
  try {
    return new PartnerClient({ ...common, ...(tls ? { tls } : {}), auth: { privateKeyJwt: { privateKey: readPrivateKey(keyFile), kid } } });
  } catch (error) {
    // The SDK's key errors name the key type, never its material.
    if (error instanceof TypeError) throw new CliError(`--private-key ${keyFile}: ${error.message}`, 2);
    throw error;
  }
}

/** --cert and --key (both or neither) and --ca, read as PEM text; undefined without --cert. */
function readTls(values: Record<string, unknown>): ClientTls | undefined {
  const [cert, key, ca] = [values.cert, values.key, values.ca] as Array<string | undefined>;
  if (cert === undefined && key === undefined) {
    if (ca !== undefined) throw new CliError('--ca goes with --cert and --key', 2);
    return undefined;
  }
  if (cert === undefined || key === undefined) throw new CliError('--cert and --key go together', 2);
  return { cert: readText(cert, '--cert'), key: readText(key, '--key'), ...(ca !== undefined ? { ca: readText(ca, '--ca') } : {}) };
}

function readText(file: string, flag: string): string {
  try {
    return readFileSync(file, 'utf8');
  } catch (error) {
    throw new CliError(`Cannot read ${flag} ${file} (${(error as NodeJS.ErrnoException).code ?? 'error'})`, 2);
  }
}

/** A PEM file as it is, or a JSON file as a private JWK. */
function readPrivateKey(file: string): PrivateKeyInput {
  const text = readText(file, '--private-key');
  if (!text.trimStart().startsWith('{')) return text;
  try {
    return JSON.parse(text) as PrivateKeyInput;
  } catch {
    throw new CliError(`--private-key ${file} is neither a PEM nor a JSON Web Key`, 2);
  }
}

