/**
 * Writes openapi.json, the committed OpenAPI document, from the routes' own schemas. Run it after changing
 * a route: `npx tsx scripts/write-openapi.ts` (a test fails while the committed file differs).
 */
import { randomBytes } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { pino } from 'pino';
import { loadConfig } from '../src/config.js';
import { openDatabase } from '../src/db/database.js';
import { migrateToLatest } from '../src/db/migrate.js';
import { createGateway } from '../src/gateway.js';
import { buildApp } from '../src/http/app.js';
import { projectFile } from '../src/project-root.js';

const handle = await openDatabase({});
try {
  await migrateToLatest(handle.db);
  const app = await buildApp({ gateway: await createGateway(loadConfig({}), handle, { masterKey: randomBytes(32) }), logger: pino({ level: 'silent' }) });
  await app.ready();
  writeFileSync(projectFile('openapi.json'), `${JSON.stringify(app.swagger(), null, 2)}\n`);
  await app.close();
} finally {
  await handle.close();
}
