import type { FastifyInstance, HTTPMethods } from 'fastify';
import fp from 'fastify-plugin';
import { errors } from '../../errors.js';

/** The methods a client may try on any path; every one a known path does not serve is answered 405. */
const METHODS: readonly HTTPMethods[] = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS', 'TRACE'];

/**
 * Records every route as it is added; `answerOtherMethods` (registered after the routes) then answers the
 * methods each known path does not serve with 405, its `Allow` header and the JSON error body, on every
 * path alike. OPTIONS and TRACE included: nobody relies on them, and a 404 would say the path is unknown.
 */
export const methodNotAllowed = fp(
  async (app: FastifyInstance) => {
    const served = new Map<string, Set<string>>();
    app.addHook('onRoute', (route) => {
      if (route.url.includes('*') || route.config?.otherMethods) return;
      const methods = served.get(route.url) ?? new Set<string>();
      for (const method of [route.method].flat()) methods.add(method);
      served.set(route.url, methods);
    });
    app.decorate('answerOtherMethods', async function answerOtherMethods(this: FastifyInstance) {
      await this.register(async (scope) => {
        // Whatever body comes with a refused method is read and ignored: no parser answers before the 405.
        scope.removeAllContentTypeParsers();
        scope.addContentTypeParser('*', { parseAs: 'buffer' }, (_request, _body, done) => done(null, undefined));
        for (const [url, methods] of served) {
          const allow = METHODS.filter((method) => methods.has(method)).join(', ');
          const others = METHODS.filter((method) => !methods.has(method) && !(method === 'HEAD' && methods.has('GET')));
          if (others.length === 0) continue;
          scope.route({
            method: others,
            url,
            config: { otherMethods: true },
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

declare module 'fastify' {
  interface FastifyInstance {
    /** Adds the 405 answers for every route added so far; call once, after the last route. */
    answerOtherMethods(): Promise<void>;
  }
  interface FastifyContextConfig {
    otherMethods?: boolean;
  }
}
