import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { AdminApi } from '@partner-gateway/contract/admin-api-client';
import type { PartnerView } from '@partner-gateway/contract/admin-partners';
import { cliHarness } from '../../../test/support/cli-harness.js';
import { CliError } from '@partner-gateway/client/cli/cli-io';
import { groupUsage, runGroup, type CommandGroup } from '@partner-gateway/client/cli/command-group';
import { describeSubresource, subresourceSubcommands, type PartnerSubresourceCommands } from './partner-subresource-command.js';

// A third sub-resource, made up for the test: what adding one to the CLI takes is this description. Its API
// calls land in a map, so that what the pattern sends can be read back.
const held = new Map<string, { tags: string[] }>();
const tags: PartnerSubresourceCommands<{ tags: string[] }, { tags: string[] }> = {
  set: [{ name: 'set-tags', arguments: ['tag...'], help: ['replace the partner’s tags', 'second line of help'], noun: 'Tags', read: (args) => ({ tags: args }) }],
  delete: { name: 'delete-tags', help: ['remove the partner’s tags'], noun: 'Tags', consequence: 'Without tags the partner is hard to find' },
  api: () => ({
    set: async (login, body) => (held.set(login, body), body),
    remove: async (login) => void held.delete(login),
  }),
  viewOf: (partner) => held.get(partner.login) ?? null,
  describe: (view) => `  tags:         ${view.tags.join(', ')}`,
  none: '  tags:         (none)',
  examples: ['partner-gateway partner set-tags acme gold'],
};
const admin = {} as AdminApi;

/** The partner command group with only the made-up sub-resource's commands. */
const group: CommandGroup<AdminApi> = { command: 'partner-gateway partner', subcommands: subresourceSubcommands(tags) };

async function run(args: string[]): Promise<{ stdout: string }> {
  const harness = cliHarness({});
  await runGroup(group, args, harness.io, admin);
  return { stdout: harness.stdout() };
}

describe('a partner sub-resource on the CLI, from its description', () => {
  it('lists its set and delete commands for partner --help, each help from column 34', () => {
    assert.equal(
      groupUsage(group).split('\n').slice(3).join('\n'),
      [
        '  set-tags <login> <tag>... [--yes]\n                                  replace the partner’s tags',
        '                                  second line of help',
        '  delete-tags <login> --yes       remove the partner’s tags',
      ].join('\n'),
    );
  });

  it('reads a set command’s arguments into the body, sends it, and prints what was registered and the view', async () => {
    const { stdout } = await run(['set-tags', '--yes', 'acme', 'gold', 'early']);
    assert.deepEqual(held.get('acme'), { tags: ['gold', 'early'] });
    assert.equal(stdout, 'Tags of acme registered\n  tags:         gold, early\n');
  });

  it('refuses a set command without its argument as a usage error naming it', async () => {
    await assert.rejects(run(['set-tags', '--yes', 'acme']), (error: CliError) => error.exitCode === 2 && /^Missing tag\nUsage: partner-gateway partner set-tags <login> <tag>\.\.\. \[--yes\]$/.test(error.message));
  });

  it('deletes only with --yes, saying first what is lost', async () => {
    held.set('acme', { tags: ['gold'] });
    await assert.rejects(run(['delete-tags', 'acme']), (error: CliError) => error.exitCode === 2 && /^Without tags the partner is hard to find; confirm with --yes\n/.test(error.message));
    assert.ok(held.has('acme'), 'nothing was removed');
    assert.equal((await run(['delete-tags', 'acme', '--yes'])).stdout, 'Tags of acme removed\n');
    assert.equal(held.has('acme'), false);
  });

  it('prints a command’s usage for --help and sends nothing', async () => {
    assert.equal((await run(['set-tags', '--help'])).stdout, 'Usage: partner-gateway partner set-tags <login> <tag>... [--yes]\n');
    assert.equal((await run(['delete-tags', '--help'])).stdout, 'Usage: partner-gateway partner delete-tags <login> --yes\n');
  });

  it('refuses a command it does not have as a usage error listing the ones it has', async () => {
    await assert.rejects(run(['set-colour', 'acme']), (error: CliError) => error.exitCode === 2 && /^Unknown command: partner-gateway partner set-colour\n[\s\S]*set-tags <login> <tag>\.\.\./.test(error.message));
  });

  it('prints its none line in partner show when the partner has none', () => {
    held.clear();
    assert.equal(describeSubresource(tags, { login: 'acme' } as PartnerView), '  tags:         (none)');
    held.set('acme', { tags: ['gold'] });
    assert.equal(describeSubresource(tags, { login: 'acme' } as PartnerView), '  tags:         gold');
  });
});
