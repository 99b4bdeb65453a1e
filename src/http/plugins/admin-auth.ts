import { createHash, timingSafeEqual } from 'node:crypto';
import { BEARER_REGEXP } from '@partner-gateway/contract/patterns';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { OperatorAuthentication } from '../../auth/steps/authenticate-operator.js';
import { AppError, errors } from '../../errors.js';
import type { Actor } from '../../request-context.js';
import { clearSessionCookie, readSessionCookie } from '../session-cookie.js';
import { namesAnotherOrigin } from './request-context.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** A static file of the admin console (page or asset): served without the token, GET and HEAD only. */
    adminConsoleAsset?: boolean;
    /** The metrics endpoint: also readable with METRICS_TOKEN. */
    metricsScrape?: boolean;
  }
}

export interface AdminAuthOptions {
  /** The bootstrap credential (ADMIN_TOKEN): every right, audited as `bootstrap`. */
  adminToken: string;
  metricsToken?: string | undefined;
  /** How operators' personal tokens and console sessions are checked (and failures throttled). */
  operators: OperatorAuthentication;
}

/**
 * Who acts, on every admin request but the console's static files and the routes marked `permission: 'public'`
 * (signing in): `Authorization: Bearer` with ADMIN_TOKEN (the bootstrap credential), METRICS_TOKEN (GET /metrics
 * only), or an operator's personal token; or, without an Authorization header, the console's session cookie,
 * whose changes must then carry the session's CSRF token (`X-CSRF-Token`) and come from this listener's own
 * origin. ADMIN_TOKEN and METRICS_TOKEN are hashed before the constant-time comparison, so that neither their
 * content nor their length leaks through timing, and compared only once the address is known not to be locked
 * out (authenticate-operator.ts): a miss counts as a failure like a wrong operator token. The credential becomes the request context's `actor`; what
 * the actor may do is the admin-permissions plugin's to decide.
 */
export const adminAuth = fp<AdminAuthOptions>(
  async (app: FastifyInstance, { adminToken, metricsToken, operators }) => {
    const expected = digest(adminToken);
    const scrape = metricsToken === undefined ? undefined : digest(metricsToken);
    app.addHook('onRequest', async (request, reply) => {
      if (isConsoleAsset(request) || isPublic(request)) return;
      try {
        await identify(request, reply);
      } catch (error) {
        if (isRefusedCredential(request, error)) request.requestContext.audit.action = 'admin.auth';
        throw error;
      }
    });

    async function identify(request: FastifyRequest, reply: FastifyReply): Promise<void> {
      const bearer = BEARER_REGEXP.exec(request.headers.authorization ?? '')?.[1];
      if (bearer !== undefined) {
        // ADMIN_TOKEN and METRICS_TOKEN are checked after the address's lockout, their misses counted, like an operator's token.
        const configured = (token: string): Actor | undefined => {
          const presented = digest(token);
          if (timingSafeEqual(presented, expected)) return BOOTSTRAP;
          if (scrape !== undefined && isMetricsScrape(request) && timingSafeEqual(presented, scrape)) return METRICS;
          return undefined;
        };
        request.requestContext.actor = await operators.withToken(bearer, request.ip, configured);
        return;
      }
      const sessionId = request.headers.authorization === undefined ? readSessionCookie(request.headers.cookie) : undefined;
      if (sessionId === undefined) throw errors.adminUnauthorized();
      request.requestContext.actor = await withSession(operators, sessionId, request, reply);
      if (!SAFE_METHODS.has(request.method)) checkCsrf(request, request.requestContext.actor);
    }
  },
  { name: 'admin-auth', fastify: '5.x', dependencies: ['error-handler', 'request-context'] },
);

/** Who acts with ADMIN_TOKEN: every right, audited as the bootstrap credential (as Keycloak's bootstrap admin). */
const BOOTSTRAP: Actor = { credential: 'bootstrap', id: 'bootstrap', name: 'bootstrap', role: null };
/** Who acts with METRICS_TOKEN: reads GET /metrics only. */
const METRICS: Actor = { credential: 'metrics', id: 'metrics', name: 'metrics', role: null };

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * A credential presented and refused (or refused unseen, its address locked out), on a route that records no
 * action of its own: audited as `admin.auth`, so that guesses leave a trace whatever the method. A route that
 * records an action (a change) keeps it, its entry a failure. A request with no credential at all (a scanner's
 * GET) is not a refused credential and leaves no entry.
 */
function isRefusedCredential(request: FastifyRequest, error: unknown): boolean {
  if (!(error instanceof AppError) || (error.code !== 'admin_unauthorized' && error.code !== 'throttled')) return false;
  if (request.routeOptions.config?.audit !== undefined) return false;
  return request.headers.authorization !== undefined || readSessionCookie(request.headers.cookie) !== undefined;
}

/** A refused session also clears its cookie, so that the browser stops presenting it. */
async function withSession(operators: OperatorAuthentication, sessionId: string, request: FastifyRequest, reply: FastifyReply): Promise<Actor> {
  try {
    return await operators.withSession(sessionId, request.ip);
  } catch (error) {
    if (error instanceof AppError && error.status === 401) reply.header('set-cookie', clearSessionCookie());
    throw error;
  }
}

/**
 * A change made with the console's cookie must carry the session's CSRF token (which a page of another origin can
 * neither read nor compute) and, when the browser names its origin, come from this listener's host. The cookie's
 * SameSite=Strict is the first line; this is the second.
 */
function checkCsrf(request: FastifyRequest, actor: Actor): void {
  const presented = request.headers['x-csrf-token'];
  const expected = actor.session?.csrfToken;
  if (typeof presented !== 'string' || expected === undefined || !timingSafeEqual(digest(presented), digest(expected))) throw errors.csrfRefused();
  if (namesAnotherOrigin(request)) throw errors.csrfRefused();
}

/** Only the routes the console plugin marks, only to read them, and never anything under /admin/. */
function isConsoleAsset(request: FastifyRequest): boolean {
  return (
    request.routeOptions.config?.adminConsoleAsset === true &&
    (request.method === 'GET' || request.method === 'HEAD') &&
    !request.url.startsWith('/admin/')
  );
}

/** Routes for signing in (what the sign-in page asks, single sign-on's redirects): read only, no credential yet. */
function isPublic(request: FastifyRequest): boolean {
  return request.routeOptions.config?.permission === 'public' && (request.method === 'GET' || request.method === 'HEAD');
}

function isMetricsScrape(request: FastifyRequest): boolean {
  return request.routeOptions.config?.metricsScrape === true && (request.method === 'GET' || request.method === 'HEAD');
}

function digest(value: string): Buffer {
  return createHash('sha256').update(value).digest();
}
