import { runCli } from './run-cli.js';

/** The `partner-gateway` executable. */
const code = await runCli(process.argv.slice(2), { env: process.env, stdin: process.stdin, stdout: process.stdout, stderr: process.stderr });
if (process.argv[2] !== 'serve') process.exitCode = code;
