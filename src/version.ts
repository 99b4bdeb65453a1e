import { readFileSync } from 'node:fs';
import { projectFile } from './project-root.js';

/**
 * The release this gateway is: package.json's `version`, the one place it is written. The contract and the
 * SDK (packages/contract, packages/client) are released with it under the same number (a test ties them);
 * the OpenAPI documents, `GET /version` and `partner-gateway --version` show it.
 *
 * @example
 * ```ts
 * GATEWAY_VERSION; // '0.1.0'
 * ```
 */
export const GATEWAY_VERSION: string = (JSON.parse(readFileSync(projectFile('package.json'), 'utf8')) as { version: string }).version;
