import { execFileSync } from 'node:child_process';
import { projectFile } from '../../src/project-root.js';

let buildIsCurrent: boolean | undefined;

/**
 * Whether the build (dist/, packages/*\/dist/) is complete and newer than every source, as
 * `scripts/build-when-stale.mjs --check` judges it for `npm start`; asked once per test process.
 */
export function buildIsUpToDate(): boolean {
  buildIsCurrent ??= execFileSync(process.execPath, [projectFile('scripts/build-when-stale.mjs'), '--check'], { encoding: 'utf8' }) === 'up to date\n';
  return buildIsCurrent;
}

/**
 * The node arguments that run `source` (a project file under `src/` or `packages/<name>/src/`, given relative
 * to the project's root): its compiled file when the build is up to date, the source through tsx otherwise.
 * Both run the same code; the build starts a process in about 2 s less CPU (tsx's loader hooks resolve and
 * load every module through a thread of their own), which the system tests' many processes add up to minutes.
 * `npm test` brings the build up to date first; a test file run alone after an edit runs the sources.
 *
 * @example spawn(process.execPath, [...nodeEntry('src/main.ts')], { env })
 */
export function nodeEntry(source: string): string[] {
  const compiled = compiledFile(source);
  return buildIsUpToDate() ? [projectFile(compiled)] : ['--import', 'tsx', projectFile(source)];
}

/** src/a/b.ts → dist/src/a/b.js; packages/client/src/a.ts → packages/client/dist/a.js. */
export function compiledFile(source: string): string {
  const inPackage = /^packages\/([^/]+)\/src\/(.+)\.ts$/.exec(source);
  if (inPackage) return `packages/${inPackage[1]}/dist/${inPackage[2]}.js`;
  const inGateway = /^src\/(.+)\.ts$/.exec(source);
  if (inGateway) return `dist/src/${inGateway[1]}.js`;
  throw new Error(`${source} is not a source the build compiles (src/ or packages/<name>/src/)`);
}
