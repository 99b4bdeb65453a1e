import { banksPath } from '@partner-gateway/contract/paths';
import { BanksQuery, BanksResponse } from '@partner-gateway/contract/public-api';
import type { FastifyInstance } from 'fastify';
import { errors, texts } from '../../errors.js';
import type { Gateway } from '../../gateway.js';
import { partnerCallErrors } from './error-body.js';

/**
 * POST /partner/{provider}/sbp/banks/: the SBP bank list, for a partner authenticated by its encrypted
 * password in the query string or by a bearer token.
 */
export async function banksRoutes(app: FastifyInstance, { gateway }: { gateway: Gateway }): Promise<void> {
  // The request has no body. Whatever a client sends with it (any Content-Type, an empty JSON body) is read
  // up to the body limit and ignored, so that no parser can refuse a well-formed banks request.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'buffer' }, (_request, _body, done) => done(null, undefined));
  // Typed by the query's schema; the answer is the version's body as published (bytes made once), not an object.
  app.post<{ Querystring: BanksQuery }>(
    banksPath(gateway.config.PROVIDER_SEGMENT),
    {
      config: { audit: 'banks' },
      // Before validation, so that a refused query is still recorded under the partner it names. A callback hook:
      // no promise per call.
      preValidation: (request, _reply, done) => {
        // Not validated yet: whatever was sent (a repeated parameter is an array), checked below.
        const partnerName: unknown = request.query.partnerName;
        if (typeof partnerName === 'string' && partnerName) request.requestContext.audit.partner = partnerName.slice(0, 256);
        done();
      },
      schema: {
        operationId: 'listBanks',
        tags: ['Banks'],
        summary: 'The banks that can receive business-to-consumer SBP transfers',
        description:
          'Authenticate with `Authorization: Bearer <access_token>` (query parameters optional), with `Authorization: DPoP <access_token>` and a `DPoP` proof header ' +
          'for a bound token (RFC 9449: htm POST, htu this URL without its query, ath the token\'s SHA-256, signed by the bound key; a bound token sent as Bearer is refused; ' +
          'a refused proof\'s fault is named in `WWW-Authenticate: DPoP error="invalid_dpop_proof", error_description="..."`; when the gateway requires DPoP nonces, the proof carries the last `DPoP-Nonce` it answered, else 401 `error="use_dpop_nonce"` with a new one), or with all three query parameters, ' +
          '`partnerPassword` being the API password as a compact JWE (see the introduction). The request has no body; any Content-Type is accepted. ' +
          'Checks run in this order: 422 missing parameter, 422 not encrypted, 401, 403 blocked, 403 IP address, 403 reward type. ' +
          'The answer carries a strong `ETag` of its body and `X-Bank-List-Version` (the list\'s version number); send the ETag back in `If-None-Match` for a 304 without a body while the list is unchanged. ' +
          '`fields=sbpMemberId,nameEn` adds those fields to every bank (null when unknown); without it the body is exactly `{"banks":[{"name","bic"}]}`.',
        security: [{ bearerAuth: [] }, { dpopAuth: [] }, {}],
        querystring: BanksQuery,
        response: {
          200: {
            ...BanksResponse,
            headers: {
              etag: { type: 'string', description: 'Strong ETag of the body (its SHA-256)' },
              'x-bank-list-version': { type: 'string', description: 'The bank list version the body is of' },
            },
          },
          304: { type: 'null', description: 'If-None-Match named the current ETag: the list is unchanged' },
          ...partnerCallErrors({
            401: [texts.unauthorized],
            403: [texts.blocked, texts.ipNotAllowed, texts.rewardTypeUnavailable],
            422: [
              errors.parameterMissing('partnerName').description,
              errors.parameterMissing('partnerPassword').description,
              errors.parameterMissing('useAuthByCert').description,
              texts.notEncrypted,
              errors.parameterInvalid('useAuthByCert').description,
            ],
            429: [errors.throttled(60).description],
          }),
        },
      },
    },
    async (request, reply) => {
      const published = await gateway.partnerApi.listBanks(request.query, request.requestContext);
      reply.header('etag', published.etag).header('x-bank-list-version', String(published.version));
      if (notModified(request.headers['if-none-match'], published.etag)) return reply.code(304).send();
      // The body's bytes, made once per version: a string would be measured and encoded again for every answer.
      return reply.type('application/json; charset=utf-8').send(published.bytes);
    },
  );
}

/** Whether If-None-Match (a list of ETags, or `*`) names `etag` (RFC 9110 13.1.2: weak comparison). */
function notModified(header: string | undefined, etag: string): boolean {
  if (header === undefined) return false;
  if (header.trim() === '*') return true;
  return header.split(',').some((candidate) => candidate.trim().replace(/^W\//, '') === etag);
}
