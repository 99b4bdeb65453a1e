import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ADMIN_ENDPOINTS, listEndpoints } from '@partner-gateway/contract/admin-endpoints';
import type { CommandGroup } from '@partner-gateway/client/cli/command-group';
import { ADMIN_GROUPS } from './run-cli.js';

/** The commands of run-cli.ts that are not groups. */
const TOP_LEVEL = new Set(['audit', 'backup']);

describe('the CLI commands the endpoint declarations name', () => {
  it('when an endpoint names its CLI command, then that command exists', () => {
    const named = listEndpoints(ADMIN_ENDPOINTS).filter(({ endpoint }) => endpoint.cli !== undefined);
    assert.ok(named.length > 0);
    for (const { name, endpoint } of named) {
      const [first, ...rest] = endpoint.cli!.split(' ');
      if (TOP_LEVEL.has(first!) && rest.length === 0) continue;
      const group: CommandGroup<unknown> | undefined = ADMIN_GROUPS[first!];
      assert.ok(group, `${name}: no command group ${first}`);
      assert.ok(rest.length === 1 && Object.hasOwn(group.subcommands, rest[0]!), `${name}: ${endpoint.cli} is not a command of partner-gateway ${first}`);
    }
  });
});
