import type { AuditEntryView, AuditQuery } from '@partner-gateway/contract/admin-audit';
import type { AdminApi } from '@partner-gateway/contract/admin-api-client';
import { print, table, type CliIo } from '@partner-gateway/client/cli/cli-io';
import { parseCommand } from '@partner-gateway/client/cli/parse-command';

export const AUDIT_USAGE = `Usage: partner-gateway audit [--partner <login>] [--outcome success|failure] [--reason <code>]
                            [--action <action>] [--request-id <id>] [--from <ISO time>] [--to <ISO time>]
                            [--limit <n>] [--follow] [--json] [--wide]

Shows the latest entries of the audit trail (--limit, default 100) newest first. With --follow they
are printed oldest first, as a log reads, and new entries below them as they come (Ctrl-C to stop).
--request-id finds the entry of one request by the X-Request-Id its answer carried (the caller's own
id, or one the gateway made). The table fits 100 columns, cutting long cells with …; --wide prints
them whole.

Examples:
  partner-gateway audit --partner acme --outcome failure
  partner-gateway audit --request-id acme-2024-05-01-0001 --json
  partner-gateway audit --follow --json`;

/**
 * `partner-gateway audit`: reads the audit trail through the admin API, or follows it.
 *
 * @example
 * ```sh
 * partner-gateway audit --reason wrong_password --limit 20
 * ```
 */
export async function auditCommand(args: string[], io: CliIo, admin: AdminApi, options: { pollMs?: number; signal?: AbortSignal } = {}): Promise<void> {
  /** Each option and the query parameter it sets. */
  const filters = { partner: 'partner', outcome: 'outcome', reason: 'reason', action: 'action', 'request-id': 'requestId', from: 'from', to: 'to', limit: 'limit' } as const satisfies Record<string, keyof AuditQuery>;
  const { values } = parseCommand(
    args,
    { ...Object.fromEntries(Object.keys(filters).map((name) => [name, { type: 'string' as const }])), follow: { type: 'boolean' }, json: { type: 'boolean' }, wide: { type: 'boolean' } },
    [],
    AUDIT_USAGE,
  );
  if (values.help) return print(io, AUDIT_USAGE);
  const query: AuditQuery = {};
  const given = values as Record<string, unknown>;
  for (const [option, parameter] of Object.entries(filters)) if (typeof given[option] === 'string') (query as Record<string, string>)[parameter] = given[option] as string;
  const show = (entries: AuditEntryView[]) => {
    if (entries.length === 0) return;
    if (values.json) {
      for (const entry of entries) print(io, JSON.stringify(entry));
      return;
    }
    print(
      io,
      table(
        ['ID', 'TIME', 'ACTION', 'OUTCOME', 'STATUS', 'PARTNER', 'ADDRESS', 'REASON', 'CALLS'],
        entries.map((e) => [e.id, e.at, e.action, e.outcome, String(e.status ?? ''), e.partner ?? '', e.clientAddress ?? '', e.reason ?? '', String(e.count ?? 1)]),
        // The time and the address are what a reader quotes or looks up next: never cut, like the id.
        { wide: values.wide === true, keep: ['ID', 'TIME', 'ADDRESS'], cutLast: ['ACTION', 'OUTCOME', 'STATUS', 'REASON', 'CALLS'] },
      ),
    );
  };
  const first = await admin.audit.query(query);
  // The API answers newest first, which is what a look at the trail wants; following appends below, so
  // there the first page turns around to read oldest→newest with the entries that come after it.
  if (!values.follow) return show(first.entries);
  show([...first.entries].reverse());
  let last = first.entries[0]?.id ?? '0';
  delete query.limit;
  while (!options.signal?.aborted) {
    await new Promise((resolve) => setTimeout(resolve, options.pollMs ?? 1_000));
    if (options.signal?.aborted) return;
    const next = await admin.audit.query({ ...query, after: last });
    show(next.entries);
    last = next.entries.at(-1)?.id ?? last;
  }
}
