/**
 * Writes docs/configuration.md from the settings schema. Run it after changing src/config.ts:
 * `npx tsx scripts/write-config-reference.ts` (a test fails while the committed file differs).
 */
import { writeFileSync } from 'node:fs';
import { projectFile } from '../src/project-root.js';
import { configurationReference } from './config-reference.js';

writeFileSync(projectFile('docs/configuration.md'), configurationReference());
