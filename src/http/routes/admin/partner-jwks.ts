import { PartnerJwksView, SetPartnerJwksBody } from '@partner-gateway/contract/admin-partner-keys';
import { LoginParams } from '@partner-gateway/contract/admin-partners';
import { ErrorBody } from '@partner-gateway/contract/error-body';
import { ADMIN_PARTNER_JWKS_PATH } from '@partner-gateway/contract/paths';
import type { FastifyInstance } from 'fastify';
import type { Gateway } from '../../../gateway.js';

const errorResponses = { '4xx': ErrorBody, '5xx': ErrorBody };
const tags = ['Partners'];

/**
 * A partner's public keys for private_key_jwt: register them (or the URL where the partner publishes them),
 * and remove them. Audited with the keys' public identity before and after (kid, type, alg, thumbprint).
 */
export async function adminPartnerJwksRoutes(app: FastifyInstance, { gateway }: { gateway: Gateway }): Promise<void> {
  const partners = gateway.admin.partners;
  app.put(
    ADMIN_PARTNER_JWKS_PATH,
    {
      config: { audit: 'partner.jwks.set' },
      schema: {
        operationId: 'setPartnerJwks',
        tags,
        summary: "Register a partner's public keys, or the https URL of its JWK Set (replaces what it had; dropping a key ends the partner's sessions)",
        description:
          'Keys: EC P-256, Ed25519, or RSA of at least 2048 bits, public members only, each kid once; 422 names every refused key. ' +
          'A jwksUri must be https (plain http only to a loopback address outside production) and is fetched once at once: a URL that serves no valid set is refused.',
        params: LoginParams,
        body: SetPartnerJwksBody,
        response: { 200: PartnerJwksView, ...errorResponses },
      },
    },
    async (request) => {
      const { login } = request.params as LoginParams;
      request.requestContext.audit.partner = login;
      const { before, after, sessionsEnded } = await partners.setJwks(login, request.body as SetPartnerJwksBody);
      request.requestContext.audit.details = { before: before.jwks, after: after.jwks, sessionsEnded };
      // A successful registration always leaves keys or a URL, so the view is never null here.
      return after.jwks!;
    },
  );
  app.delete(
    ADMIN_PARTNER_JWKS_PATH,
    {
      config: { audit: 'partner.jwks.delete' },
      schema: {
        operationId: 'deletePartnerJwks',
        tags,
        summary: "Remove a partner's public keys (private_key_jwt then fails for it until new ones are registered; its sessions end)",
        description: 'Answers 204 whether or not the partner had keys (sessions end only when it had some); 404 for an unknown partner.',
        params: LoginParams,
        response: { 204: { type: 'null', description: 'Removed' }, ...errorResponses },
      },
    },
    async (request, reply) => {
      const { login } = request.params as LoginParams;
      request.requestContext.audit.partner = login;
      const { before, sessionsEnded } = await partners.deleteJwks(login);
      request.requestContext.audit.details = { before: before.jwks, after: null, sessionsEnded };
      return reply.code(204).send();
    },
  );
}

