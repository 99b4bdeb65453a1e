import { runPartnerCli } from './run-partner-cli.js';

/** The `partner-gateway-client` executable (bin/partner-gateway-client.js runs this module's build). */
process.exitCode = await runPartnerCli(process.argv.slice(2), { env: process.env, stdin: process.stdin, stdout: process.stdout, stderr: process.stderr });
