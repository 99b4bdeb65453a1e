import { existsSync } from 'node:fs';
import { join } from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyContextConfig, FastifyInstance } from 'fastify';
import { projectFile } from '../../project-root.js';

export interface AdminConsoleOptions {
  /** The built console (`npm run build:console`); `dist/console` of the project by default. */
  root?: string;
}

/**
 * The console's own policy: scripts, styles and API calls from this origin only, nothing inline, no
 * framing. The page talks to nothing but the admin API it is served with.
 */
export const CONSOLE_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

/**
 * The admin console: its page at `/` and its assets under `/assets/`, on the admin listener only. These
 * GET routes are marked `adminConsoleAsset`, the one thing admin-auth lets through without the token (the
 * page holds no data; every call it makes to /admin/v1/* carries the token the operator signs in with).
 */
export async function adminConsole(app: FastifyInstance, options: AdminConsoleOptions): Promise<void> {
  await serveBuiltPage(app, { root: options.root ?? projectFile('dist/console'), path: '/', title: 'Admin console', config: { adminConsoleAsset: true } });
}

/**
 * A page Vite built into `root` (the admin console, the partner portal): its `index.html` at `path` and its assets
 * under `<path>assets/`, under CONSOLE_CSP, the page never cached and the assets (named by their content hash, so
 * never changed under their name) cached for a year; a 503 notice at `path` when it has not been built.
 */
export async function serveBuiltPage(app: FastifyInstance, page: { root: string; path: string; title: string; config?: FastifyContextConfig }): Promise<void> {
  const { root, path } = page;
  const options = { config: page.config ?? {}, schema: { hide: true } };
  if (!existsSync(join(root, 'index.html'))) {
    app.get(path, options, async (_request, reply) =>
      reply
        .code(503)
        .type('text/html; charset=utf-8')
        .header('content-security-policy', CONSOLE_CSP)
        .send(`<!doctype html><title>${page.title}</title><p>The ${page.title.toLowerCase()} has not been built: run <code>npm run build</code>.</p>`),
    );
    return;
  }
  await app.register(fastifyStatic, { root, serve: false });
  app.get(path, options, async (_request, reply) =>
    reply
      .header('content-security-policy', CONSOLE_CSP)
      .header('cache-control', 'no-cache')
      .sendFile('index.html', root, { cacheControl: false }),
  );
  app.get<{ Params: { '*': string } }>(`${path}assets/*`, options, async (request, reply) =>
    reply
      .header('content-security-policy', CONSOLE_CSP)
      .sendFile(request.params['*'], join(root, 'assets'), { maxAge: '365d', immutable: true, dotfiles: 'deny', index: false }),
  );
}
