/**
 * Writes docs/admin-operations.md from the contract's endpoint declarations. Run it after declaring or changing an
 * admin endpoint: `npx tsx scripts/write-admin-operations.ts` (a test fails while the committed file differs).
 */
import { writeFileSync } from 'node:fs';
import { projectFile } from '../src/project-root.js';
import { adminOperationsReference } from './admin-operations.js';

writeFileSync(projectFile('docs/admin-operations.md'), adminOperationsReference());
