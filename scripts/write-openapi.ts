/**
 * Writes the committed OpenAPI documents from the routes' own schemas: openapi.json (the partner API) and
 * admin-openapi.json (the admin API). Run it after changing a route: `npx tsx scripts/write-openapi.ts` (a
 * test fails while a committed file differs).
 */
import { randomBytes } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { pino } from 'pino';
import { loadConfig } from '../src/config.js';
import { openDatabase } from '../src/db/database.js';
import { migrateToLatest } from '../src/db/migrate.js';
import { createGateway } from '../src/gateway.js';
import { buildAdminApp } from '../src/http/admin-app.js';
import { buildApp } from '../src/http/app.js';
import { projectFile } from '../src/project-root.js';

const handle = await openDatabase({});
try {
  await migrateToLatest(handle.db);
  const gateway = await createGateway(loadConfig({}), handle, { masterKey: randomBytes(32) });
  const logger = pino({ level: 'silent' });
  const documents = { 'openapi.json': await buildApp({ gateway, logger }), 'admin-openapi.json': await buildAdminApp({ gateway, logger, adminToken: randomBytes(32).toString('hex') }) };
  for (const [file, app] of Object.entries(documents)) {
    await app.ready();
    writeFileSync(projectFile(file), `${JSON.stringify(app.swagger(), null, 2)}\n`);
    await app.close();
  }
  await gateway.runtime.close();
} finally {
  await handle.close();
}
