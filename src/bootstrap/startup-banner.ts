/** What a person starting the gateway by hand needs to read once it is ready. */
export interface StartupFacts {
  publicUrl: string;
  adminUrl: string;
  /** Where the admin token was generated or read, when it comes from DATA_DIR rather than ADMIN_TOKEN. */
  adminToken: { file?: string; generated: boolean };
  /** The demo partner created on this (first, non-production) start, with its password. */
  demo?: { login: string; password: string };
}

const RULE = '='.repeat(78);

/**
 * The message printed once both listeners are up, as one framed block, so that it stands apart from the
 * JSON log lines around it: the addresses, where the admin token is, and on a first start the demo
 * partner's credentials (shown this once), its JWKS URL and a login curl that works as printed. Undefined
 * when there is nothing a person needs to see (a production start with ADMIN_TOKEN set).
 *
 * @example
 * print(startupBanner({ publicUrl, adminUrl, adminToken, demo }) ?? '')
 */
export function startupBanner({ publicUrl, adminUrl, adminToken, demo }: StartupFacts): string | undefined {
  if (!adminToken.file && !demo) return undefined;
  const lines = [`Partner Gateway is ready: API ${publicUrl}, admin API ${adminUrl}`];
  if (adminToken.file) lines.push(`Admin API token: ${adminToken.generated ? 'generated into' : 'read from'} ${adminToken.file}`);
  if (demo) {
    const body = JSON.stringify({ login: demo.login, password: demo.password });
    lines.push(
      '',
      'A demo partner was created (loopback only, reward type sbp). Its password is shown this once:',
      `  login:    ${demo.login}`,
      `  password: ${demo.password}`,
      `  JWKS:     ${publicUrl}/.well-known/jwks.json`,
      '',
      'Log in:',
      `  curl -s -X POST ${publicUrl}/api/v1/login/ -H 'Content-Type: application/json' -d '${body}'`,
    );
  }
  return ['', RULE, ...lines, RULE, ''].join('\n');
}
