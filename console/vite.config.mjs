// Builds the admin console into dist/console, which the admin listener serves (src/http/plugins/admin-console.ts).
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  base: '/',
  // Preact through the automatic JSX runtime; no framework plugin needed.
  oxc: { jsx: { runtime: 'automatic', importSource: 'preact' } },
  build: {
    outDir: fileURLToPath(new URL('../dist/console', import.meta.url)),
    emptyOutDir: true,
    // Nothing inline, so that the page runs under `script-src 'self'` (see CONSOLE_CSP).
    modulePreload: { polyfill: false },
    assetsInlineLimit: 0,
    target: 'es2022',
    sourcemap: false,
  },
  logLevel: 'warn',
});
