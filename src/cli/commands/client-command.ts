import { PartnerApiError, PartnerClient, type PartnerApiErrorKind } from '@partner-gateway/client';
import { CliError, print, table, type CliIo } from '../cli-io.js';
import { parseCommand } from '../parse-command.js';
import { readPassword } from '../read-password.js';

const CONNECTION = '--auth-url <url> --api-url <url> [--provider provider] --login <login> [--password-stdin] [--json]';

export const CLIENT_USAGE = `Usage: partner-gateway client <command> [options]

Calls the partner API as a partner does (through @partner-gateway/client); needs no admin token.

Commands:
  login [options]                   log in and print when the access token expires
  banks [--with-password] [options] list the SBP banks, with a bearer token or (--with-password) with the
                                    password encrypted into the query string

Options:
  --auth-url <url>       the login host, {auth_url} (not needed by banks --with-password)
  --api-url <url>        the partner API host, {api_url} (banks)
  --provider <segment>   the provider path segment (default provider)
  --login <login>        the partner login
  --password-stdin       read the API password from standard input; otherwise it is prompted for
  --json                 print JSON (login: the access token too, which is otherwise never printed;
                         the refresh token never leaves the client)

Exit codes: 0 done, 1 refused or failed, 2 usage error, 3 gateway not reachable.

Example:
  printf '%s' "$PARTNER_API_PASSWORD" | partner-gateway client banks --auth-url http://127.0.0.1:8080 \\
    --api-url http://127.0.0.1:8080 --login demo --password-stdin`;

const CONNECTION_OPTIONS = {
  'auth-url': { type: 'string' },
  'api-url': { type: 'string' },
  provider: { type: 'string' },
  login: { type: 'string' },
  'password-stdin': { type: 'boolean' },
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
 * `partner-gateway client ...`: logs in or lists the banks as a partner, printing the token's expiry or a
 * BIC/NAME table. A refusal prints its kind and description and exits 1; no answer at all exits 3.
 *
 * @example
 * ```sh
 * printf '%s' "$PASSWORD" | partner-gateway client login --auth-url https://auth.example --login acme --password-stdin
 * ```
 */
export async function clientCommand(args: string[], io: CliIo): Promise<void> {
  const [command, ...rest] = args;
  switch (command) {
    case 'login': {
      const usage = `Usage: partner-gateway client login ${CONNECTION}`;
      const { values } = parseCommand(rest, CONNECTION_OPTIONS, [], usage);
      if (values.help) return print(io, usage);
      const authUrl = required(values, 'auth-url', usage);
      const client = await connect(io, values, authUrl, authUrl);
      const token = await call(() => client.login());
      if (values.json) {
        // The refresh token stays inside the SDK; nothing here could print it.
        const { accessToken, expiresIn, expiresAt } = token;
        return print(io, JSON.stringify({ access_token: accessToken, token_type: 'bearer', expires_in: expiresIn, expires_at: expiresAt.toISOString() }, null, 2));
      }
      return print(io, `Logged in as ${values.login}. The access token expires at ${token.expiresAt.toISOString()} (in ${token.expiresIn} s).`);
    }
    case 'banks': {
      const usage = `Usage: partner-gateway client banks [--with-password] ${CONNECTION}`;
      const { values } = parseCommand(rest, { ...CONNECTION_OPTIONS, 'with-password': { type: 'boolean' } }, [], usage);
      if (values.help) return print(io, usage);
      const apiUrl = required(values, 'api-url', usage);
      const withPassword = Boolean(values['with-password']);
      const authUrl = withPassword ? ((values['auth-url'] as string | undefined) ?? apiUrl) : required(values, 'auth-url', usage);
      const client = await connect(io, values, authUrl, apiUrl);
      const banks = await call(() => (withPassword ? client.banksWithPassword() : client.banks()));
      if (values.json) return print(io, JSON.stringify({ banks }, null, 2));
      return print(io, banks.length === 0 ? 'No banks.' : table(['BIC', 'NAME'], banks.map((bank) => [bank.bic, bank.name])));
    }
    case undefined:
    case '--help':
    case '-h':
    case 'help':
      return print(io, CLIENT_USAGE);
    default:
      throw new CliError(`Unknown client command ${command}\n\n${CLIENT_USAGE}`, 2);
  }
}

function required(values: Record<string, unknown>, name: string, usage: string): string {
  const value = values[name];
  if (typeof value !== 'string' || value === '') throw new CliError(`--${name} is required\n${usage}`, 2);
  return value;
}

async function connect(io: CliIo, values: Record<string, unknown>, authUrl: string, apiUrl: string): Promise<PartnerClient> {
  const login = required(values, 'login', 'Usage: partner-gateway client --help');
  // Checked before the password prompt, so that a typo does not cost the operator a password entry.
  for (const [flag, url] of [['--auth-url', authUrl], ['--api-url', apiUrl]] as const) {
    if (!/^https?:\/\/[^/]/i.test(url) || !URL.canParse(url)) throw new CliError(`${flag} must be an http or https URL, not ${url}`, 2);
  }
  const password = await readPassword(io, Boolean(values['password-stdin']), `API password of ${login}: `);
  const provider = values.provider as string | undefined;
  return new PartnerClient({ authUrl, apiUrl, login, password, ...(provider ? { provider } : {}) });
}

async function call<T>(operation: () => Promise<T>): Promise<T> {
  try {
    return await operation();
  } catch (error) {
    if (!(error instanceof PartnerApiError)) throw error;
    const status = error.status ? `HTTP ${error.status}` : 'no answer';
    const wait = error.retryAfterSeconds === undefined ? '' : ` (the gateway asks to wait ${error.retryAfterSeconds} s)`;
    throw new CliError(`Error: ${error.kind} (${status}): ${error.description}\n${HINTS[error.kind]}${wait}`, error.kind === 'network' ? 3 : 1);
  }
}
