import { AuditExportQuery, AuditPage, AuditQuery } from './admin-audit.js';
import { adminEndpoint } from './admin-endpoint.js';
import { ADMIN_AUDIT_EXPORT_PATH, ADMIN_AUDIT_PATH } from './paths.js';

const tags = ['Audit'];

/** The audit trail, filtered and paged newest first (`cursor`), or followed oldest first (`after`). */
export const AUDIT_ENDPOINTS = {
  query: adminEndpoint({
    method: 'GET',
    path: ADMIN_AUDIT_PATH,
    operationId: 'queryAudit',
    tags,
    summary: 'The audit trail, filtered, newest first or followed',
    description: 'The search is itself audited (action audit.search, with its filter; never what it found).',
    querystring: AuditQuery,
    status: 200,
    answer: AuditPage,
    permission: 'read',
    audit: 'audit.search',
    cli: 'audit',
    send: (query: AuditQuery) => ({ query }),
  }),
};

/**
 * The audit trail from `from` to `to` as a file, streamed (JSON lines or CSV). Not in AUDIT_ENDPOINTS: neither
 * the CLI nor the console downloads it through the admin client, so the client has no method for it.
 */
export const AUDIT_EXPORT_ENDPOINT = adminEndpoint({
  method: 'GET',
  path: ADMIN_AUDIT_EXPORT_PATH,
  operationId: 'exportAudit',
  tags,
  summary: 'The audit trail from `from` to `to` as a file: JSON lines (one entry a line) or CSV, oldest first, streamed',
  description: 'Read from the database a page at a time as it is sent, whatever its size. The export is itself audited (action audit.export, with the range, format and rows).',
  querystring: AuditExportQuery,
  status: 200,
  answer: { description: 'The file (Content-Disposition names it)', type: 'string' },
  answerAs: 'text',
  produces: ['application/x-ndjson', 'text/csv'],
  permission: 'audit.export',
  audit: 'audit.export',
  send: (query: AuditExportQuery) => ({ query }),
});
