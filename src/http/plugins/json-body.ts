import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { errors } from '../../errors.js';

/**
 * JSON bodies, parsed as Fastify would, but a body carrying a `__proto__` key, or a `constructor` key holding
 * a `prototype`, is refused with an answer that says so (Fastify's own parser refuses them too, calling the
 * body "not valid JSON", which sent clients looking for a syntax error). Nothing is ever assigned to a
 * prototype either way: JSON.parse makes such keys plain own properties, and they are refused before any
 * code sees them.
 */
export const jsonBody = fp(
  async (app: FastifyInstance) => {
    app.removeContentTypeParser('application/json');
    app.addContentTypeParser('application/json', { parseAs: 'string' }, (_request, body, done) => {
      const text = (body as string).charCodeAt(0) === 0xfeff ? (body as string).slice(1) : (body as string);
      if (text.length === 0) return done(errors.malformedBody(), undefined);
      let forbidden = false;
      let parsed: unknown;
      try {
        parsed = JSON.parse(text, (key, value: unknown) => {
          if (key === '__proto__' || (key === 'constructor' && typeof value === 'object' && value !== null && Object.hasOwn(value, 'prototype'))) forbidden = true;
          return value;
        });
      } catch {
        return done(errors.malformedBody(), undefined);
      }
      return forbidden ? done(errors.forbiddenKey(), undefined) : done(null, parsed);
    });
  },
  { name: 'json-body', fastify: '5.x' },
);
