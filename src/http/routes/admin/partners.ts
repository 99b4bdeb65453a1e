import {
  auditablePartner,
  LoginParams,
  partnerBodiesFor,
  PartnerList,
  PartnerView,
  RewardTypeCatalogue,
} from '@partner-gateway/contract/admin-partners';
import { ErrorBody } from '@partner-gateway/contract/error-body';
import { ADMIN_PARTNERS_PATH, ADMIN_REWARD_TYPES_PATH } from '@partner-gateway/contract/paths';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import type { Gateway } from '../../../gateway.js';
import { answerSubmitted, PROPOSED } from './answer-submitted.js';

const errorResponses = { '4xx': ErrorBody, '5xx': ErrorBody };
const PARTNER_PATH = `${ADMIN_PARTNERS_PATH}/:login`;
const tags = ['Partners'];

/** The partner registry: create, list, show, change and remove partners, and the reward types they may get. Responses never carry a hash. */
export async function adminPartnerRoutes(untyped: FastifyInstance, { gateway }: { gateway: Gateway }): Promise<void> {
  const app = untyped.withTypeProvider<TypeBoxTypeProvider>();
  const partners = gateway.admin.partners;
  // The bodies as this gateway takes them: reward types from its catalogue (an enum in the document).
  const bodies = partnerBodiesFor(partners.rewardTypes());
  app.get(
    ADMIN_REWARD_TYPES_PATH,
    { config: { permission: 'read' }, schema: { operationId: 'listRewardTypes', tags, summary: 'The reward types a partner may be given (REWARD_TYPES)', response: { 200: RewardTypeCatalogue, ...errorResponses } } },
    async () => ({ rewardTypes: partners.rewardTypes() }),
  );
  app.post(
    ADMIN_PARTNERS_PATH,
    { config: { audit: 'partner.create', permission: 'partners.write' }, schema: { operationId: 'createPartner', tags, summary: 'Create a partner', body: bodies.create, response: { 201: PartnerView, ...errorResponses } } },
    async (request, reply) => {
      const body = request.body;
      request.requestContext.audit.partner = body.login;
      const created = await partners.create(body);
      request.requestContext.audit.details = { after: auditablePartner(created) };
      return reply.code(201).send(created);
    },
  );
  app.get(ADMIN_PARTNERS_PATH, { config: { permission: 'read' }, schema: { operationId: 'listPartners', tags, summary: 'List partners', response: { 200: PartnerList, ...errorResponses } } }, async () => ({
    partners: await partners.list(),
  }));
  app.get(PARTNER_PATH, { config: { permission: 'read' }, schema: { operationId: 'getPartner', tags, summary: 'Show a partner', params: LoginParams, response: { 200: PartnerView, ...errorResponses } } }, async (request) =>
    partners.get(request.params.login),
  );
  app.patch(
    PARTNER_PATH,
    {
      config: {
        audit: 'partner.update',
        permission: 'partners.write',
        // A partner's credentials and how it may use them are the security role's.
        fieldPermissions: { password: 'partners.credentials', authMethods: 'partners.credentials', requireSenderConstrainedTokens: 'partners.credentials' },
      },
      schema: {
        operationId: 'updatePartner',
        tags,
        summary: 'Change a partner (a block, a new password, taking `password` out of authMethods or requiring bound tokens ends its sessions)',
        description: 'Maker-checker action `partner.update`: when it needs approval, the answer is 202 with a proposal (a new password is kept only hashed until then).',
        params: LoginParams,
        body: bodies.update,
        response: { 200: PartnerView, ...PROPOSED, ...errorResponses },
      },
    },
    async (request, reply) => {
      const { login } = request.params;
      const { password, ...body } = request.body;
      request.requestContext.audit.partner = login;
      // Hashed before it is submitted, so that a proposal never keeps the password itself.
      const update = password === undefined ? body : { ...body, passwordHash: await partners.hashNewPassword(password) };
      return answerSubmitted(reply, await gateway.admin.approvals.submit('partner.update', { login, body: update }, request.requestContext));
    },
  );
  app.delete(
    PARTNER_PATH,
    {
      config: { audit: 'partner.delete', permission: 'partners.write' },
      schema: {
        operationId: 'deletePartner',
        tags,
        summary: 'Remove a partner',
        description: 'Maker-checker action `partner.delete`: when it needs approval, the answer is 202 with a proposal.',
        params: LoginParams,
        response: { 204: { type: 'null', description: 'Removed' }, ...PROPOSED, ...errorResponses },
      },
    },
    async (request, reply) => answerSubmitted(reply, await gateway.admin.approvals.submit('partner.delete', { login: request.params.login }, request.requestContext), 204),
  );
}
