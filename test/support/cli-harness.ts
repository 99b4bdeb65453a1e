import { PassThrough, Readable } from 'node:stream';
import type { CliIo } from '@partner-gateway/client/cli/cli-io';

/** Streams for running a CLI command in-process: stdin from a string, stdout and stderr collected. */
export function cliHarness(env: Record<string, string>, stdin = ''): { io: CliIo; stdout: () => string; stderr: () => string } {
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  const out: string[] = [];
  const err: string[] = [];
  stdout.on('data', (chunk) => out.push(String(chunk)));
  stderr.on('data', (chunk) => err.push(String(chunk)));
  return { io: { env, stdin: Readable.from([stdin]), stdout, stderr }, stdout: () => out.join(''), stderr: () => err.join('') };
}
