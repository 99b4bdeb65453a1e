import { LOGIN_PATH } from '@partner-gateway/contract/paths';
import { LoginRequest, TokenResponse } from '@partner-gateway/contract/public-api';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { Session } from '../../operations/login-partner.js';
import { errors, texts } from '../../errors.js';
import type { Gateway } from '../../gateway.js';
import { NO_STORE_HEADERS, partnerCallErrors } from './error-body.js';
import { noStore } from '../plugins/request-context.js';

/** The token response body, and the headers that keep it out of every cache. */
export function sendSession(reply: FastifyReply, session: Session): TokenResponse {
  noStore(reply);
  return {
    access_token: session.accessToken,
    token_type: session.tokenType,
    expires_in: session.expiresIn,
    refresh_token: session.refreshToken,
    refresh_expires_in: session.refreshExpiresIn,
  };
}

/** POST /api/v1/login/: login and API password in, a bearer access token out. */
export async function loginRoutes(untyped: FastifyInstance, { gateway }: { gateway: Gateway }): Promise<void> {
  const app = untyped.withTypeProvider<TypeBoxTypeProvider>();
  // Only JSON bodies: Fastify's default text/plain parser would turn a form post into a string.
  app.removeContentTypeParser('text/plain');
  app.post(
    LOGIN_PATH,
    {
      config: { audit: 'login' },
      // Before validation, so that a refused body is still recorded under the login it claims.
      preValidation: async (request) => {
        request.requestContext.audit.partner = claimedLogin(request.body);
      },
      schema: {
        operationId: 'login',
        tags: ['Authentication'],
        summary: 'Log in: login and API password for a bearer access token',
        description:
          'Returns a JWT access token (RFC 9068, ES256) for `Authorization: Bearer`. When `expires_in` seconds have passed, log in again. ' +
          'With a `DPoP` header (RFC 9449: a proof with htm POST and htu this URL), the token is bound to the proof\'s key (token_type DPoP) and its refreshes need the same key\'s proof; ' +
          'partners required to use bound tokens must send one. ' +
          'An unknown login and a wrong password give the same 401; 403 answers come only once the password is right.',
        security: [],
        body: LoginRequest,
        response: {
          200: { ...TokenResponse, headers: NO_STORE_HEADERS },
          ...partnerCallErrors({
            400: [errors.malformedBody().description, errors.forbiddenKey().description],
            401: [texts.unauthorized],
            403: [texts.blocked, texts.ipNotAllowed],
            413: [errors.payloadTooLarge().description],
            415: [errors.unsupportedMediaType('application/json').description],
            429: [errors.throttled(60).description],
            422: [
              errors.parameterMissing('login').description,
              errors.parameterMissing('password').description,
              errors.parameterInvalid('login').description,
              errors.validationFailed([{ field: '<name>', message: 'is not a known field' }]).description,
            ],
          }),
        },
      },
    },
    async (request, reply) =>
      sendSession(reply, await gateway.partnerApi.login(request.body, request.requestContext)),
  );
}

/** The login a request claims to be, for the audit trail (whether or not it proves it). */
function claimedLogin(body: unknown): string | undefined {
  const login = (body as { login?: unknown } | null)?.login;
  return typeof login === 'string' && login.length > 0 && login.length <= 256 ? login : undefined;
}
