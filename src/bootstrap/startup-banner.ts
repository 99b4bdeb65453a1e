import { banksPath, LOGIN_PATH } from '@partner-gateway/contract/paths';

/** What a person starting the gateway by hand needs to read once it is ready. */
export interface StartupFacts {
  /** The gateway's release (package.json). */
  version: string;
  publicUrl: string;
  adminUrl: string;
  /** PROVIDER_SEGMENT: the banks path's provider segment. */
  providerSegment: string;
  /** Where the admin token was generated or read, when it comes from DATA_DIR rather than ADMIN_TOKEN. */
  adminToken: { file?: string; generated: boolean };
  /** The demo partner created on this (first, non-production) start, with its password. */
  demo?: { login: string; password: string };
}

const RULE = '='.repeat(78);

/**
 * The message printed once both listeners are up, as one framed block, so that it stands apart from the
 * JSON log lines before it (it is the last thing a start prints): the release, the addresses, where the admin
 * token is, and on a first start the demo partner's credentials (shown this once), its JWKS URL, a login curl
 * and a banks call with the token that work as pasted into bash or zsh (the token line stops the pair when
 * the login fails, rather than sending the banks call an empty token). Undefined when there is nothing a
 * person needs to see (a production start with ADMIN_TOKEN set).
 *
 * @example
 * print(startupBanner({ publicUrl, adminUrl, adminToken, demo }) ?? '')
 */
export function startupBanner({ version, publicUrl, adminUrl, providerSegment, adminToken, demo }: StartupFacts): string | undefined {
  if (!adminToken.file && !demo) return undefined;
  const lines = [`Partner Gateway ${version} is ready: API ${publicUrl}, admin API ${adminUrl}`];
  if (adminToken.file) lines.push(`Admin API token: ${adminToken.generated ? 'generated into' : 'read from'} ${adminToken.file}`);
  if (demo) {
    const body = JSON.stringify({ login: demo.login, password: demo.password });
    const login = `curl -s -X POST ${publicUrl}${LOGIN_PATH} -H 'Content-Type: application/json' -d '${body}'`;
    lines.push(
      '',
      'A demo partner was created (loopback only, reward type sbp). Its password is shown this once:',
      `  login:    ${demo.login}`,
      `  password: ${demo.password}`,
      `  JWKS:     ${publicUrl}/.well-known/jwks.json`,
      '',
      'Log in:',
      `  ${login}`,
      'List the banks with a token (bash or zsh):',
      `  TOKEN=$(${login.replace('curl -s ', 'curl -sf ')} | node -p 'JSON.parse(require("fs").readFileSync(0)).access_token') &&`,
      `  curl -s -X POST ${publicUrl}${banksPath(providerSegment)} -H "Authorization: Bearer $TOKEN"`,
    );
  }
  return ['', RULE, ...lines, RULE, ''].join('\n');
}
