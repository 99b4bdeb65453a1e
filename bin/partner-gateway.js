#!/usr/bin/env node
// The partner-gateway command. It runs the compiled build, which `npm install` produces (the prepare script).
import { existsSync } from 'node:fs';

const entry = new URL('../dist/src/cli/main.js', import.meta.url);
if (!existsSync(entry)) {
  process.stderr.write('partner-gateway is not built yet: run `npm install` (or `npm run build`) in its directory first\n');
  process.exit(2);
}
await import(entry.href);
