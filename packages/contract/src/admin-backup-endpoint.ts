import { adminEndpoint } from './admin-endpoint.js';
import { ADMIN_BACKUP_PATH } from './paths.js';

/** The embedded database, copied while it serves (GET /admin/v1/backup): the bytes of a gzipped tar. */
export const BACKUP_ENDPOINT = adminEndpoint({
  method: 'GET',
  path: ADMIN_BACKUP_PATH,
  operationId: 'backupDatabase',
  tags: ['Operations'],
  summary: 'A consistent copy of the embedded database (gzipped tar), taken while it serves',
  description:
    "Other statements wait while the copy is taken (a checkpoint and a copy of the data directory: 4.2 s for a 128 MB database on 2 cores). The file holds every partner's sealed credentials: keep it as safe as the database. Restore with `partner-gateway restore <file>` and the same MASTER_KEY.",
  status: 200,
  answer: { description: 'The backup (Content-Disposition names it)', type: 'string', format: 'binary' },
  answerAs: 'binary',
  produces: ['application/gzip'],
  permission: 'database.backup',
  audit: 'database.backup',
  cli: 'backup',
  send: () => ({}),
});
