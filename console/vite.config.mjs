// Builds the admin console into dist/console, which the admin listener serves (src/http/plugins/admin-console.ts).
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

/**
 * How a page of the gateway is built (the admin console here, the partner portal in portal.vite.config.mjs): Preact
 * through the automatic JSX runtime, nothing inline, into `outDir` relative to this folder.
 */
export function builtPageConfig({ root, base, outDir }) {
  return defineConfig({
    root: fileURLToPath(new URL(root, import.meta.url)),
    base,
    // Preact through the automatic JSX runtime; no framework plugin needed.
    oxc: { jsx: { runtime: 'automatic', importSource: 'preact' } },
    build: {
      outDir: fileURLToPath(new URL(outDir, import.meta.url)),
      // Not emptied first: a running gateway, or the browser test of another `npm test` in the same tree,
      // keeps finding the assets it was serving. Asset names carry their content hash, so nothing stale is ever
      // referenced; old ones only take a little room.
      emptyOutDir: false,
      // Nothing inline, so that the page runs under `script-src 'self'` (see CONSOLE_CSP).
      modulePreload: { polyfill: false },
      assetsInlineLimit: 0,
      target: 'es2022',
      sourcemap: false,
    },
    logLevel: 'warn',
  });
}

export default builtPageConfig({ root: '.', base: '/', outDir: '../dist/console' });
