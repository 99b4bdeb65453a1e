import type { AdminApi } from '@partner-gateway/contract/admin-api-client';
import type { WebhookEndpointCreated } from '@partner-gateway/contract/admin-webhooks';
import { CliError, print, table } from '@partner-gateway/client/cli/cli-io';
import type { Subcommand } from '@partner-gateway/client/cli/command-group';
import { parseCommand } from '@partner-gateway/client/cli/parse-command';

/** What a partner is given after a creation or a rotation: the public key, or the secret shown this once. */
function materialText({ endpoint, secret }: WebhookEndpointCreated): string {
  const given = secret ? `Secret (shown once; give it to the partner like a password): ${secret}` : `Public key (give it to the partner): ${endpoint.publicKey}`;
  return `Webhook ${endpoint.id} -> ${endpoint.url} (${endpoint.scheme})\n${given}`;
}

/**
 * `partner webhooks|add-webhook|delete-webhook|rotate-webhook|webhook-log|replay-webhook`: a partner's webhook
 * endpoints (docs/webhooks.md).
 *
 * @example
 * ```sh
 * partner-gateway partner add-webhook acme https://acme.example/hooks --scheme v1
 * partner-gateway partner replay-webhook acme 0b9f… --since 2026-11-27T00:00:00Z
 * ```
 */
export const partnerWebhookCommands: Record<string, Subcommand<AdminApi>> = {
  webhooks: {
    synopsis: '<login> [--json]',
    changes: false,
    summary: "the partner's webhook endpoints",
    run: async (args, io, admin, usage) => {
      const { values, positionals } = parseCommand(args, { json: { type: 'boolean' } }, ['login'], usage);
      if (values.help) return print(io, usage);
      const { endpoints } = await admin.webhooks.list(positionals[0]!);
      if (values.json) return print(io, JSON.stringify(endpoints, null, 2));
      if (endpoints.length === 0) return print(io, 'No webhook endpoints.');
      return print(io, table(['ID', 'SCHEME', 'STATUS', 'URL'], endpoints.map((endpoint) => [endpoint.id, endpoint.scheme, endpoint.status + (endpoint.disabledReason ? ` (${endpoint.disabledReason})` : ''), endpoint.url])));
    },
  },
  'add-webhook': {
    synopsis: '<login> <url> [--scheme v1a|v1]',
    changes: true,
    summary: 'register a webhook endpoint (v1a ed25519 by default; v1 HMAC prints its secret once)',
    run: async (args, io, admin, usage) => {
      const { values, positionals } = parseCommand(args, { scheme: { type: 'string' } }, ['login', 'url'], usage);
      if (values.help) return print(io, usage);
      const scheme = values.scheme === undefined ? undefined : String(values.scheme);
      if (scheme !== undefined && scheme !== 'v1a' && scheme !== 'v1') throw new CliError(`--scheme is v1a or v1\n${usage}`, 2);
      return print(io, materialText(await admin.webhooks.create(positionals[0]!, { url: positionals[1]!, ...(scheme ? { scheme } : {}) })));
    },
  },
  'delete-webhook': {
    synopsis: '<login> <id>',
    changes: true,
    summary: 'remove a webhook endpoint (its queued deliveries and log go with it)',
    run: async (args, io, admin, usage) => {
      const { values, positionals } = parseCommand(args, {}, ['login', 'id'], usage);
      if (values.help) return print(io, usage);
      await admin.webhooks.remove(positionals[0]!, positionals[1]!);
      return print(io, `Removed webhook ${positionals[1]}`);
    },
  },
  'rotate-webhook': {
    synopsis: '<login> <id> [--overlap-hours <n>]',
    changes: true,
    summary: "new signing material for a webhook endpoint; the old one still signs for the overlap (24 h)",
    run: async (args, io, admin, usage) => {
      const { values, positionals } = parseCommand(args, { 'overlap-hours': { type: 'string' } }, ['login', 'id'], usage);
      if (values.help) return print(io, usage);
      const overlap = values['overlap-hours'] === undefined ? undefined : Number(values['overlap-hours']);
      if (overlap !== undefined && !Number.isInteger(overlap)) throw new CliError(`--overlap-hours is a whole number\n${usage}`, 2);
      return print(io, materialText(await admin.webhooks.rotate(positionals[0]!, positionals[1]!, overlap === undefined ? {} : { overlapHours: overlap })));
    },
  },
  'webhook-log': {
    synopsis: '<login> <id> [--limit <n>] [--json]',
    changes: false,
    summary: "a webhook endpoint's delivery attempts, newest first",
    run: async (args, io, admin, usage) => {
      const { values, positionals } = parseCommand(args, { limit: { type: 'string' }, json: { type: 'boolean' } }, ['login', 'id'], usage);
      if (values.help) return print(io, usage);
      const { attempts } = await admin.webhooks.attempts(positionals[0]!, positionals[1]!, values.limit === undefined ? undefined : Number(values.limit));
      if (values.json) return print(io, JSON.stringify(attempts, null, 2));
      if (attempts.length === 0) return print(io, 'No attempts yet.');
      return print(io, table(['WHEN', 'EVENT', 'OUTCOME', 'STATUS', 'ERROR'], attempts.map((attempt) => [attempt.at, attempt.eventId, attempt.outcome, attempt.statusCode === null ? '' : String(attempt.statusCode), attempt.error ?? ''])));
    },
  },
  'replay-webhook': {
    synopsis: '<login> <id> (--event <msg_id> | --since <time>)',
    changes: true,
    summary: 'send one event again, or every event since an ISO time, to a webhook endpoint',
    run: async (args, io, admin, usage) => {
      const { values, positionals } = parseCommand(args, { event: { type: 'string' }, since: { type: 'string' } }, ['login', 'id'], usage);
      if (values.help) return print(io, usage);
      if ((values.event === undefined) === (values.since === undefined)) throw new CliError(`Give --event or --since\n${usage}`, 2);
      const body = values.event !== undefined ? { eventId: String(values.event) } : { since: String(values.since) };
      const { queued } = await admin.webhooks.replay(positionals[0]!, positionals[1]!, body);
      return print(io, `Queued ${queued} deliver${queued === 1 ? 'y' : 'ies'}`);
    },
  },
};
