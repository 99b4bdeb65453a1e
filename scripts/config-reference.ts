import type { TSchema } from 'typebox';
import { SECRET_SETTINGS } from '../src/bootstrap/secret-files.js';
import { validValue } from '../src/bootstrap/setting-problems.js';
import { ConfigSchema } from '../src/config.js';

/** A table cell: pipes escaped, on one line. */
const cell = (text: string) => text.replaceAll('|', '\\|').replaceAll('\n', ' ');

/**
 * docs/configuration.md, made from the settings schema (src/config.ts): one table row per setting with its
 * default, its line of documentation and what a valid value looks like, so that the reference cannot drift
 * from what the gateway reads. `npx tsx scripts/write-config-reference.ts` writes it; a test fails when the
 * committed file differs.
 */
export function configurationReference(): string {
  const secrets = new Set<string>(SECRET_SETTINGS);
  const rows = Object.entries(ConfigSchema.properties).map(([key, schema]) => {
    const { default: value, description } = schema as TSchema & { default?: unknown; description?: string };
    const shown = value === undefined ? '' : value === '' ? '(empty)' : `\`${String(value)}\``;
    const valid = validValue(schema);
    const secret = secrets.has(key) ? ' A secret: never logged; or its file in the next setting.' : '';
    return `| \`${key}\` | ${shown} | ${cell(description ?? '')}${secret}${valid === 'text' ? '' : ` *Valid: ${cell(valid)}.*`} |`;
  });
  return [
    '# Configuration reference',
    '',
    '<!-- Generated from src/config.ts by `npx tsx scripts/write-config-reference.ts`; edit the schema, not this file. -->',
    '',
    'The gateway reads these environment variables once, at start (`src/config.ts`). Unset and empty are the',
    'same. A start with wrong settings stops before opening anything and lists every problem at once, each',
    'naming its setting and what a valid value looks like (exit code 2); a database that cannot be reached is',
    'one log line naming `DATABASE_URL` and the cause (exit code 1).',
    '',
    `Every secret (${SECRET_SETTINGS.map((key) => `\`${key}\``).join(', ')})`,
    'may instead be given as a file in `<NAME>_FILE` (a Docker or Kubernetes secret): read once at start, trailing',
    'newlines removed, at most 16 KiB; setting both is refused.',
    '',
    'In production (`NODE_ENV=production`) the gateway needs `PUBLIC_URL`, `DATABASE_URL`, `ADMIN_TOKEN` and',
    '`MASTER_KEY`, unless `ALLOW_EMBEDDED_DATABASE=true` says that a single instance on the embedded database in',
    '`DATA_DIR` (with its generated admin token and master key there) is meant. Database upgrades, migrations and',
    'backups: [operations-database.md](operations-database.md).',
    '',
    '| Setting | Default | What it does |',
    '|---|---|---|',
    ...rows,
    '',
  ].join('\n');
}
