import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { ConfigSchema } from '../../src/config.js';
import { projectFile } from '../../src/project-root.js';
import { configurationReference } from '../../scripts/config-reference.js';

describe('the configuration reference (docs/configuration.md)', () => {
  const committed = readFileSync(projectFile('docs/configuration.md'), 'utf8');

  it('is what scripts/write-config-reference.ts makes of the settings schema now (run it after changing src/config.ts)', () => {
    assert.equal(committed, configurationReference());
  });

  it('has one line per setting, with its default when it has one', () => {
    for (const [key, schema] of Object.entries(ConfigSchema.properties)) {
      const lines = committed.split('\n').filter((line) => line.startsWith(`| \`${key}\` |`));
      assert.equal(lines.length, 1, key);
      const value = (schema as { default?: unknown }).default;
      if (value !== undefined && value !== '') assert.ok(lines[0]!.startsWith(`| \`${key}\` | \`${String(value)}\` |`), lines[0]);
    }
  });
});
