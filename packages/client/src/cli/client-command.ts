import { PartnerApiError, type PartnerApiErrorKind } from '../partner-api-error.js';
import { CliError, print, table, type CliIo } from './cli-io.js';
import { runGroup, type CommandGroup } from './command-group.js';
import { parseCommand } from './parse-command.js';
import { connect, required } from './client-connection.js';

const CONNECTION =
  '--auth-url <url> --api-url <url> [--provider provider] --login <login> [--password-stdin | --private-key <file> --kid <kid>] [--cert <file> --key <file> [--ca <file>]] [--dpop] [--json]';

const CONNECTION_OPTIONS = {
  'auth-url': { type: 'string' },
  'api-url': { type: 'string' },
  provider: { type: 'string' },
  login: { type: 'string' },
  'password-stdin': { type: 'boolean' },
  'private-key': { type: 'string' },
  kid: { type: 'string' },
  cert: { type: 'string' },
  key: { type: 'string' },
  ca: { type: 'string' },
  dpop: { type: 'boolean' },
  json: { type: 'boolean' },
} as const;

// What the partner can do about each failure; the SDK's kinds exist so that this table can be written.
const HINTS: Record<PartnerApiErrorKind, string> = {
  unauthorized: 'Check the login and the API password.',
  blocked: 'Contact your account manager.',
  ip_blocked: 'Call from an address on your allowlist, or ask your account manager to add this one.',
  reward_unavailable: 'Contact your account manager.',
  invalid_request: 'Check --auth-url, --api-url and --provider.',
  throttled: 'Wait and try again.',
  unavailable: 'The gateway failed; try again later.',
  network: 'Is the gateway running, and are --auth-url and --api-url right?',
};

/**
 * The partner's commands (`login`, `banks`), named by `command`: `partner-gateway-client` (this package's
 * bin) or `partner-gateway client` (the gateway's own CLI, which delegates here).
 *
 * @example
 * ```ts
 * await runGroup(clientCommands('partner-gateway-client'), ['banks', '--api-url', url, ...], io, undefined);
 * ```
 */
export function clientCommands(command: string): CommandGroup<void> {
  return {
    command,
    summary: 'call the partner API as a partner',
    intro: 'Calls the partner API as a partner does (through @partner-gateway/client); needs no admin token.',
    subcommands: {
      login: {
        synopsis: CONNECTION,
        changes: false,
        summary: 'log in (or, with --private-key or --cert alone, get a token at the OAuth token endpoint)\nand print the token type and when it expires',
        run: async (args, io, _context, usage) => {
          const { values } = parseCommand(args, CONNECTION_OPTIONS, [], usage);
          if (values.help) return print(io, usage);
          const authUrl = required(values, 'auth-url', usage);
          const client = await connect(io, values, authUrl, authUrl, usage);
          const token = await call(() => client.login(), values);
          // The seed's login says `bearer`; the token endpoint (a key, or the certificate alone) and a bound token
          // say `Bearer` or `DPoP` (RFC 9449).
          const fromTokenEndpoint = values['private-key'] !== undefined || (values.cert !== undefined && !values['password-stdin']);
          const tokenType = token.tokenType === 'Bearer' && !fromTokenEndpoint ? 'bearer' : token.tokenType;
          if (values.json) {
            // The refresh token stays inside the SDK; nothing here could print it.
            const { accessToken, expiresIn, expiresAt } = token;
            return print(io, JSON.stringify({ access_token: accessToken, token_type: tokenType, expires_in: expiresIn, expires_at: expiresAt.toISOString() }, null, 2));
          }
          const how = values['private-key'] ? ` with the key ${values.kid}` : '';
          // The password login's line stays as it was (scripts read it); other tokens name their type.
          const kind = tokenType === 'bearer' ? '' : ` ${tokenType}`;
          return print(io, `Logged in as ${values.login}${how}. The${kind} access token expires at ${token.expiresAt.toISOString()} (in ${token.expiresIn} s).`);
        },
      },
      banks: {
        synopsis: `[--with-password] [--wide] ${CONNECTION}`,
        changes: false,
        summary: 'list the SBP banks, with a bearer token or (--with-password) with the password encrypted\ninto the query string; --wide prints names longer than the table\'s 100 columns whole',
        run: async (args, io, _context, usage) => {
          const { values } = parseCommand(args, { ...CONNECTION_OPTIONS, 'with-password': { type: 'boolean' }, wide: { type: 'boolean' } }, [], usage);
          if (values.help) return print(io, usage);
          const apiUrl = required(values, 'api-url', usage);
          const withPassword = Boolean(values['with-password']);
          if (withPassword && values['private-key']) throw new CliError(`--with-password needs the password, not --private-key\n${usage}`, 2);
          const authUrl = withPassword ? ((values['auth-url'] as string | undefined) ?? apiUrl) : required(values, 'auth-url', usage);
          const client = await connect(io, values, authUrl, apiUrl, usage);
          const banks = await call(() => (withPassword ? client.banksWithPassword() : client.banks()), values);
          if (values.json) return print(io, JSON.stringify({ banks }, null, 2));
          return print(io, banks.length === 0 ? 'No banks.' : table(['BIC', 'NAME'], banks.map((bank) => [bank.bic, bank.name]), { wide: values.wide === true, cutLast: ['BIC'] }));
        },
      },
    },
    epilogue: `Options:
  --auth-url <url>       the login host, {auth_url} (not needed by banks --with-password)
  --api-url <url>        the partner API host, {api_url} (banks)
  --provider <segment>   the provider path segment (default provider)
  --login <login>        the partner login
  --password-stdin       read the API password from standard input; otherwise it is prompted for
  --private-key <file>   authenticate with the partner's private key instead of the password (a PEM or a
                         private JWK file; EC P-256, Ed25519 or RSA): client credentials with private_key_jwt
  --kid <kid>            the kid under which the public key is registered (with --private-key)
  --cert <file>          present this client certificate (PEM) on every connection (mutual TLS); alone, without
                         a password or --private-key, the certificate is the credential (tls_client_auth or
                         self_signed_tls_client_auth) and the token is bound to it: use the gateway's https address
  --key <file>           the certificate's private key (PEM), with --cert
  --ca <file>            CA certificates (PEM) that issued the gateway's own certificate, if not a system one
  --dpop                 bind the token to a DPoP key generated for this run and send a proof with every call
  --json                 print JSON (login: the access token too, which is otherwise never printed;
                         the refresh token never leaves the client)

Exit codes: 0 done, 1 refused or failed, 2 usage error, 3 gateway not reachable.

Examples:
  printf '%s' "$PARTNER_API_PASSWORD" | ${command} banks --auth-url http://127.0.0.1:8080 \\
    --api-url http://127.0.0.1:8080 --login demo --password-stdin
  ${command} banks --auth-url http://127.0.0.1:8080 --api-url http://127.0.0.1:8080 \\
    --login demo --private-key demo-key.pem --kid demo-1 --dpop`,
  };
}

/**
 * `<command> login|banks ...`: logs in or lists the banks as a partner, printing the token's expiry or a
 * BIC/NAME table. A refusal prints its kind and description and exits 1; no answer at all exits 3.
 *
 * @example
 * ```sh
 * printf '%s' "$PASSWORD" | partner-gateway-client login --auth-url https://auth.example --login acme --password-stdin
 * ```
 */
export async function clientCommand(args: string[], io: CliIo, command = 'partner-gateway-client'): Promise<void> {
  return runGroup(clientCommands(command), args, io, undefined);
}


async function call<T>(operation: () => Promise<T>, values: Record<string, unknown>): Promise<T> {
  try {
    return await operation();
  } catch (error) {
    if (!(error instanceof PartnerApiError)) throw error;
    const status = error.status ? `HTTP ${error.status}` : 'no answer';
    const wait = error.retryAfterSeconds === undefined ? '' : ` (the gateway asks to wait ${error.retryAfterSeconds} s)`;
    const certificateOnly = values.cert !== undefined && !values['private-key'] && !values['password-stdin'];
    const hint = error.kind !== 'unauthorized' ? HINTS[error.kind] : values['private-key'] ? KEY_HINT : certificateOnly ? CERTIFICATE_HINT : HINTS[error.kind];
    throw new CliError(`Error: ${error.kind} (${status}): ${error.description}\n${hint}${wait}`, error.kind === 'network' ? 3 : 1);
  }
}

const CERTIFICATE_HINT = 'Check the login and the certificate: is it registered for the partner (or issued by a CA the provider trusts, to its subject), with its method among the partner\'s?';
const KEY_HINT = 'Check the login, the key and --kid: is its public key registered for the partner, with private_key_jwt among its methods?';
