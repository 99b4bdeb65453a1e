import { SSO_CALLBACK_PATH, SSO_START_PATH } from '@partner-gateway/contract/paths';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { adminPublicUrl } from '../../../config.js';
import { AppError } from '../../../errors.js';
import type { Gateway } from '../../../gateway.js';
import { CONSOLE_CSP } from '../../plugins/admin-console.js';
import { clearSsoFlowCookie, readSsoFlowCookie, sessionCookie, ssoFlowCookie } from '../../session-cookie.js';

/**
 * Single sign-on for the console (OpenID Connect, authorization code with PKCE): `/sso/start` sends the browser
 * to the identity provider with a fresh state, nonce and code challenge, and keeps the state in a short-lived
 * flow cookie; `/sso/callback` checks the state against that cookie, exchanges the code (openid-client checks the
 * ID token), maps the role claim to a console role, creates the operator on its first sign-in, and starts a
 * session: a cookie holding a random id, then back to the console. A refusal is a page that says why. Both are
 * browser navigations, not API calls: they stay out of the OpenAPI document.
 */
export async function ssoRoutes(app: FastifyInstance, { gateway }: { gateway: Gateway }): Promise<void> {
  const config = { permission: 'public' as const };
  app.get(SSO_START_PATH, { config, schema: { hide: true } }, async (request, reply) => {
    if (!gateway.sso) return page(reply, 404, 'Single sign-on is not configured', 'This gateway has no OIDC_ISSUER: sign in with a personal token.');
    let started;
    try {
      started = await gateway.sso.start(request.ip);
    } catch (error) {
      // Too many sign-ins under way: the catalogue's 429, answered as JSON like every refusal.
      if (error instanceof AppError) throw error;
      reply.log.warn({ err: error }, 'single sign-on: the identity provider could not be reached');
      return page(reply, 502, 'The identity provider cannot be reached', 'Single sign-on could not start (its discovery document did not answer). Try again in a moment, or sign in with a personal token.');
    }
    return reply.code(302).header('set-cookie', ssoFlowCookie(started.state)).header('location', started.redirect.href).send();
  });
  app.get(SSO_CALLBACK_PATH, { config: { ...config, audit: 'session.sign-in' }, schema: { hide: true } }, async (request, reply) => {
    // Anyone who reaches the listener can call this: a refusal is counted with its like per address and window.
    request.requestContext.audit.aggregate = { key: 'refused', windowMs: FAILED_CALLBACK_AUDIT_WINDOW_MS };
    if (!gateway.sso) return page(reply, 404, 'Single sign-on is not configured', 'This gateway has no OIDC_ISSUER: sign in with a personal token.');
    const outcome = await gateway.sso.finish(callbackUrl(request, adminPublicUrl(gateway.config)), readSsoFlowCookie(request.headers.cookie));
    reply.header('set-cookie', clearSsoFlowCookie());
    const notes = request.requestContext.audit;
    if (outcome.kind === 'refused') {
      request.errorCode = outcome.reason;
      notes.aggregate = { key: `${outcome.reason}\u0000${outcome.who ?? ''}`, windowMs: FAILED_CALLBACK_AUDIT_WINDOW_MS };
      notes.details = { reason: outcome.reason, ...(outcome.who ? { who: outcome.who } : {}) };
      return page(reply, outcome.status, outcome.title, outcome.message);
    }
    const { operator } = outcome;
    delete request.requestContext.audit.aggregate;
    notes.operator = { id: operator.id, name: operator.name, credential: 'sso' };
    notes.details = { role: operator.role, created: outcome.created };
    return reply.code(303).header('set-cookie', [clearSsoFlowCookie(), sessionCookie(outcome.sessionId)]).header('location', '/#/').send();
  });
}

/**
 * Failed callbacks of one address, reason and person within this window share one audit entry, whose `count`
 * says how many there were: written when the window ends (or the trail is flushed), so that a flood of
 * `/sso/callback?error=…` costs a row a minute per address rather than one per request.
 */
const FAILED_CALLBACK_AUDIT_WINDOW_MS = 60_000;

/** The URL the identity provider sent the browser to, as the console's public address names it (what redirect_uri said). */
function callbackUrl(request: FastifyRequest, base: string): URL {
  const query = request.url.indexOf('?');
  return new URL(`${SSO_CALLBACK_PATH}${query === -1 ? '' : request.url.slice(query)}`, base);
}

/** A page for the browser: no script, the console's CSP, a way back. */
function page(reply: FastifyReply, status: number, title: string, message: string): FastifyReply {
  const html = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(title)}</title></head><body><main><h1>${escapeHtml(title)}</h1><p>${escapeHtml(message)}</p><p><a href="/">Back to the console</a></p></main></body></html>`;
  return reply.code(status).type('text/html; charset=utf-8').header('content-security-policy', CONSOLE_CSP).send(html);
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (character) => `&#${character.charCodeAt(0)};`);
}
