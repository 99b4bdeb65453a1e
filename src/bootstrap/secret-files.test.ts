import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { readSecretFiles, SECRET_FILE_MAX_BYTES } from './secret-files.js';

describe('secret settings read from files', () => {
  const directory = mkdtempSync(join(tmpdir(), 'secret-files-'));
  after(() => rmSync(directory, { recursive: true, force: true }));
  const file = (name: string, content: string | Buffer) => {
    writeFileSync(join(directory, name), content);
    return join(directory, name);
  };

  it('when <NAME>_FILE is set, then <NAME> is the file\'s text without its trailing newlines', () => {
    const read = readSecretFiles({ REDIS_URL_FILE: file('redis', 'redis://cache:6379\n\n'), OIDC_CLIENT_SECRET_FILE: file('oidc', 'with inner\nline\r\n'), METRICS_TOKEN_FILE: '' });
    assert.deepEqual(read, { values: { REDIS_URL: 'redis://cache:6379', OIDC_CLIENT_SECRET: 'with inner\nline' }, problems: [] });
  });

  it('when both <NAME> and <NAME>_FILE are set, or the file is missing, empty or too large, then each is a problem naming the setting and path, never the content', () => {
    const big = file('big', Buffer.alloc(SECRET_FILE_MAX_BYTES + 1, 'a'));
    const read = readSecretFiles({
      ADMIN_TOKEN: 'secret-in-env',
      ADMIN_TOKEN_FILE: file('admin', 'secret-in-file'),
      MASTER_KEY_FILE: join(directory, 'absent'),
      DATABASE_URL_FILE: file('empty', '\n'),
      REDIS_URL_FILE: big,
      METRICS_TOKEN_FILE: directory,
    });
    assert.deepEqual(read.values, {});
    assert.deepEqual(read.problems, [
      'ADMIN_TOKEN and ADMIN_TOKEN_FILE are both set: give one of them',
      'METRICS_TOKEN_FILE: ' + directory + ' cannot be read (EISDIR)',
      `MASTER_KEY_FILE: ${join(directory, 'absent')} cannot be read (ENOENT)`,
      `DATABASE_URL_FILE: ${join(directory, 'empty')} is empty; it should hold DATABASE_URL alone`,
      `REDIS_URL_FILE: ${big} is larger than 16 KiB; it should hold the secret alone`,
    ]);
    assert.ok(!read.problems.join('\n').includes('secret-in'));
  });

  it('reads a file exactly at the size limit', () => {
    assert.equal(readSecretFiles({ OIDC_CLIENT_SECRET_FILE: file('limit', 'x'.repeat(SECRET_FILE_MAX_BYTES)) }).values.OIDC_CLIENT_SECRET?.length, SECRET_FILE_MAX_BYTES);
  });
});
