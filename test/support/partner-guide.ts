import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { projectFile } from '../../src/project-root.js';
import { repositoryToolVersions, type PartnerProject } from './partner-project.js';

/** docs/integration.md, the partner guide. */
export const guide = readFileSync(projectFile('docs/integration.md'), 'utf8');

/** The text of the guide's `## <title>` section, up to the next one. */
export function guideSection(title: string): string {
  const start = guide.indexOf(`\n## ${title}\n`);
  if (start < 0) throw new Error(`docs/integration.md has no section "${title}"`);
  const end = guide.indexOf('\n## ', start + 1);
  return guide.slice(start, end < 0 ? undefined : end);
}

const sdk = guideSection('In TypeScript: the SDK');

/** What the guide's TypeScript section gives a partner: its install command, its tsconfig.json, its examples by file name. */
export const guideSdk = {
  installCommand: /```sh\n(npm install \.\/partner-gateway-contract-[^\n]*)\n```/.exec(sdk)?.[1],
  tsconfig: /```json\n(\{[^]*?"compilerOptions"[^]*?)```/.exec(sdk)?.[1],
  examples: new Map([...sdk.matchAll(/```ts\n(\/\/ ([\w-]+\.ts):[^]*?)```/g)].map(([, text, name]) => [name!, text!])),
};

/**
 * Sets `project` up as the guide's "Install" says: its install command as written, TypeScript and Node's
 * types as devDependencies (the versions this repository builds with), its tsconfig.json, and every example
 * file; throws with npm's output if an install fails.
 */
export async function setUpGuideProject(project: PartnerProject): Promise<void> {
  const { installCommand, tsconfig, examples } = guideSdk;
  if (!installCommand || !tsconfig || examples.size === 0) throw new Error('the guide lacks its install command, tsconfig.json or examples');
  const install = await project.bash(installCommand);
  if (install.code !== 0) throw new Error(`${installCommand}: ${install.stderr}`);
  const tools = await project.run('npm', ['install', '--save-dev', '--prefer-offline', '--no-audit', '--no-fund', ...repositoryToolVersions()]);
  if (tools.code !== 0) throw new Error(`npm install --save-dev: ${tools.stderr}`);
  writeFileSync(join(project.dir, 'tsconfig.json'), tsconfig);
  for (const [name, text] of examples) writeFileSync(join(project.dir, name), text);
}
