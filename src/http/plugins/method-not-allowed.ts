import { METHODS as NODE_METHODS } from 'node:http';
import type { FastifyInstance, HTTPMethods } from 'fastify';
import fp from 'fastify-plugin';
import { errors } from '../../errors.js';

/**
 * The methods a client may try on any path: the common ones in the order `Allow` lists them, then every other
 * method Node's parser reads (QUERY, PROPFIND, …), which Fastify is taught to route here. CONNECT is left out:
 * its request line names a host, not a path, and Node hands it to the server's `connect` event, never to a route.
 */
const COMMON: readonly string[] = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS', 'TRACE'];
export const ROUTABLE_METHODS: readonly string[] = [...COMMON, ...NODE_METHODS.filter((method) => method !== 'CONNECT' && !COMMON.includes(method))];

/**
 * Records every route as it is added; `answerOtherMethods` (registered after the routes) then answers every
 * method each known path does not serve with 405, its `Allow` header and the JSON error body of the catalogue
 * (`{"description_status"}`, the seed's shape), on every path alike. OPTIONS, TRACE and QUERY included: nobody
 * relies on them, and a 404 would say the path is unknown. A method Node's parser does not know at all (`FOO`)
 * never reaches a route: `allowedMethods` lets the client-error handler answer it the same way.
 */
export const methodNotAllowed = fp(
  async (app: FastifyInstance) => {
    for (const method of ROUTABLE_METHODS) {
      if (!app.supportedMethods.includes(method)) app.addHttpMethod(method, { hasBody: true });
    }
    const served = new Map<string, Set<string>>();
    app.addHook('onRoute', (route) => {
      if (route.url.includes('*') || route.config?.otherMethods) return;
      const methods = served.get(route.url) ?? new Set<string>();
      for (const method of [route.method].flat()) methods.add(method);
      served.set(route.url, methods);
    });
    app.decorate('allowedMethods', (url: string): string | undefined => {
      const path = url.split('?')[0] ?? url;
      // The route a path matches with the fewest parameters, as the router prefers a static segment.
      let best: { params: number; allow: string } | undefined;
      for (const [pattern, methods] of served) {
        const params = pattern.split('/').filter((segment) => segment.startsWith(':')).length;
        if ((best === undefined || params < best.params) && pathPattern(pattern).test(path)) best = { params, allow: allowOf(methods) };
      }
      return best?.allow;
    });
    app.decorate('answerOtherMethods', async function answerOtherMethods(this: FastifyInstance) {
      await this.register(async (scope) => {
        // Whatever body comes with a refused method is read and ignored: no parser answers before the 405.
        scope.removeAllContentTypeParsers();
        scope.addContentTypeParser('*', { parseAs: 'buffer' }, (_request, _body, done) => done(null, undefined));
        for (const [url, methods] of served) {
          const allow = allowOf(methods);
          const others = ROUTABLE_METHODS.filter((method) => !methods.has(method) && !(method === 'HEAD' && methods.has('GET')));
          if (others.length === 0) continue;
          scope.route({
            method: others as HTTPMethods[],
            url,
            config: { otherMethods: true, allow },
            schema: { hide: true },
            handler: async () => {
              throw errors.methodNotAllowed(allow);
            },
          });
        }
      });
    });
  },
  { name: 'method-not-allowed', fastify: '5.x' },
);

function allowOf(methods: ReadonlySet<string>): string {
  return ROUTABLE_METHODS.filter((method) => methods.has(method)).join(', ');
}

/** A route's URL (`/admin/v1/partners/:login/jwks`) as the router matches it: a parameter is one segment, a trailing slash optional. */
function pathPattern(url: string): RegExp {
  const source = url
    .replace(/\/+$/, '')
    .split('/')
    .map((segment) => (segment.startsWith(':') ? '[^/]+' : segment.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
    .join('/');
  return new RegExp(`^${source}/?$`);
}

declare module 'fastify' {
  interface FastifyInstance {
    /** Adds the 405 answers for every route added so far; call once, after the last route. */
    answerOtherMethods(): Promise<void>;
    /** The `Allow` of a known path (a request's URL, query and all), or undefined for an unknown one. */
    allowedMethods(url: string): string | undefined;
  }
  interface FastifyContextConfig {
    otherMethods?: boolean;
    /** On a route that answers 405: the methods its path serves (what the error handler answers a QUERY Fastify refused before the route). */
    allow?: string;
  }
}
