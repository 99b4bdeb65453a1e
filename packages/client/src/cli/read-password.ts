import { createInterface } from 'node:readline';
import { Writable } from 'node:stream';
import { CliError, type CliIo } from './cli-io.js';

/**
 * Reads a password from standard input (`--password-stdin`, for scripts) or from a prompt that does not
 * echo. Never from argv: command lines are visible to every user of the machine and land in shell history.
 */
export async function readPassword(io: CliIo, fromStdin: boolean, prompt = 'Password: '): Promise<string> {
  if (fromStdin) {
    const chunks: Buffer[] = [];
    for await (const chunk of io.stdin) chunks.push(Buffer.from(chunk as Buffer));
    const password = Buffer.concat(chunks).toString('utf8').replace(/\r?\n$/, '');
    if (!password) throw new CliError('No password on standard input', 2);
    return password;
  }
  if (!io.stdin.isTTY) throw new CliError('No terminal to ask for the password on: pass --password-stdin and pipe it in', 2);
  const muted = new Writable({ write: (_chunk, _encoding, callback) => callback() });
  io.stderr.write(prompt);
  const reader = createInterface({ input: io.stdin, output: muted, terminal: true });
  const password = await new Promise<string>((resolve) => reader.question('', resolve));
  reader.close();
  io.stderr.write('\n');
  if (!password) throw new CliError('Empty password', 2);
  return password;
}
