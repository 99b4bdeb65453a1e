/**
 * The bench's single-use requests, prepared and sent in bounded memory on any machine: the DPoP banks
 * scenario prepared for a bearer rate of 200 000 req/s (a fast machine's) under a small heap cap, the file
 * reader across chunk boundaries, and a load run that sends each single-use line once and ends when they are
 * spent, against a loopback server that counts them.
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { decodeJwt, decodeProtectedHeader } from 'jose';
import { MAX_PREPARED_RATE, preparedCount, RequestFileReader, countLines, writeLines } from '../../bench/support/request-file.js';
import { runLoad } from '../../bench/support/run-load.js';
import { projectFile } from '../../src/project-root.js';

/** bench/run.ts's default seconds a scenario (BENCH_DURATION). */
const BENCH_DURATION = 10;
/** Well under what the file takes (over 100 MB): a preparation that held its requests would run out of heap. */
const HEAP_MB = 48;

describe('the bench\'s request preparation', () => {
  const dir = mkdtempSync(join(tmpdir(), 'bench-requests-'));
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('prepares the DPoP banks scenario for a bearer rate of 200 000 req/s in a 48 MB heap: each line a fresh proof for the banks call', async () => {
    const file = join(dir, 'dpop-banks.jsonl');
    const expected = preparedCount(200_000, BENCH_DURATION);
    assert.equal(expected, MAX_PREPARED_RATE * BENCH_DURATION * 1.2, 'a rate beyond MAX_PREPARED_RATE prepares for MAX_PREPARED_RATE');
    const { stdout } = await new Promise<{ stdout: string }>((resolve, reject) =>
      execFile(process.execPath, [`--max-old-space-size=${HEAP_MB}`, '--import', 'tsx', projectFile('test/bench/prepare-dpop-banks.ts'), file, '200000', String(BENCH_DURATION)], { timeout: 600_000 }, (error, out, err) =>
        error ? reject(new Error(`${error.message}\n${err}`)) : resolve({ stdout: out }),
      ),
    );
    const { count, spec } = JSON.parse(stdout) as { count: number; spec: { requestsFile: string; headers: { authorization: string }; singleUse: boolean } };
    assert.equal(count, expected);
    assert.deepEqual([spec.requestsFile, spec.singleUse], [file, true]);
    assert.match(spec.headers.authorization, /^DPoP eyJ/);
    assert.ok(statSync(file).size > HEAP_MB * 2 ** 20 * 2, `the file (${statSync(file).size} bytes) is far larger than the heap the preparation had`);

    const reader = new RequestFileReader(file);
    const jtis = new Set<string>();
    try {
      for (let line = reader.next(); line !== undefined; line = reader.next()) {
        const { headers } = JSON.parse(line) as { headers: { dpop: string } };
        assert.equal(decodeProtectedHeader(headers.dpop).typ, 'dpop+jwt');
        jtis.add(decodeJwt(headers.dpop).jti!);
      }
    } finally {
      reader.close();
    }
    assert.equal(jtis.size, expected, 'one proof a line, each with its own jti');
  });

  it('reads a file back line by line across its 1 MiB chunks, multi-byte characters included', async () => {
    const file = join(dir, 'lines.txt');
    const line = (index: number) => `${index} Сбербанк «${'ж'.repeat(index % 700)}»`;
    await writeLines(file, 5_000, async (index) => line(index));
    assert.ok(statSync(file).size > 3 * 2 ** 20, 'several chunks');
    const reader = new RequestFileReader(file);
    try {
      for (let index = 0; index < 5_000; index++) assert.equal(reader.next(), line(index));
      assert.equal(reader.next(), undefined);
      reader.rewind();
      assert.equal(reader.next(), line(0));
    } finally {
      reader.close();
    }
    assert.equal(countLines(file), 5_000);
  });

  describe('a load run over single-use lines', () => {
    let server: Server;
    let url = '';
    const seen: string[] = [];
    before(async () => {
      server = createServer((request, response) => {
        seen.push(String(request.headers.dpop ?? request.url));
        response.end('{}');
      });
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      url = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
    });
    after(() => new Promise<void>((resolve) => server.close(() => resolve())));

    it('sends each request once and ends when they are spent, long before its duration', async () => {
      seen.length = 0;
      const requestsFile = join(dir, 'single-use.jsonl');
      await writeLines(requestsFile, 600, async (index) => JSON.stringify({ headers: { dpop: `proof-${index}` } }));
      const result = await runLoad({ url, method: 'POST', connections: 4, durationSec: 600, requestsFile, singleUse: true });
      assert.equal(result.ok, 600);
      assert.equal(seen.length, 600);
      assert.equal(new Set(seen).size, 600, 'no request twice');
    });

    it('sends each path once, likewise', async () => {
      seen.length = 0;
      const pathsFile = join(dir, 'paths.txt');
      writeFileSync(pathsFile, `${Array.from({ length: 300 }, (_, index) => `/jwe/${index}`).join('\n')}\n`);
      const result = await runLoad({ url, method: 'POST', connections: 4, durationSec: 600, pathsFile, singleUse: true });
      assert.equal(result.ok, 300);
      assert.deepEqual([...new Set(seen)].sort(), Array.from({ length: 300 }, (_, index) => `/jwe/${index}`).sort());
      assert.equal(seen.length, 300);
    });
  });
});
