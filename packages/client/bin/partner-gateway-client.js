#!/usr/bin/env node
// The partner CLI: `partner-gateway-client login|banks ...` (see --help). It runs the package's build.
import '../dist/cli/main.js';
