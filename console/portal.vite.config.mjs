// Builds the partner portal into dist/portal, which the public listener serves at /portal/ (src/http/routes/portal.ts).
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

export default defineConfig({
  root: fileURLToPath(new URL('./portal', import.meta.url)),
  base: '/portal/',
  oxc: { jsx: { runtime: 'automatic', importSource: 'preact' } },
  build: {
    outDir: fileURLToPath(new URL('../dist/portal', import.meta.url)),
    // Not emptied first, as the console's: a running gateway keeps finding the assets it was serving.
    emptyOutDir: false,
    // Nothing inline, so that the page runs under `script-src 'self'` (CONSOLE_CSP).
    modulePreload: { polyfill: false },
    assetsInlineLimit: 0,
    target: 'es2022',
    sourcemap: false,
  },
  logLevel: 'warn',
});
