import type { FastifyInstance } from 'fastify';
import { Type, type Static } from 'typebox';
import type { Gateway } from '../../../gateway.js';
import { ErrorBody } from '../error-body.js';

const Status = Type.Union([Type.Literal('active'), Type.Literal('blocked')]);
const Password = Type.String({ minLength: 1, maxLength: 256, description: 'API password, at least 12 characters; stored only as an argon2id hash' });
const IpAllowlist = Type.Array(Type.String({ maxLength: 64 }), {
  maxItems: 1000,
  description: 'IPv4/IPv6 addresses or CIDRs; an empty list allows no address',
});
const RewardTypes = Type.Array(Type.String({ pattern: '^[a-z][a-z0-9_]{0,31}$' }), {
  maxItems: 50,
  description: 'Reward types the partner may use; the banks operation needs sbp',
});

export const CreatePartnerBody = Type.Object(
  {
    login: Type.String({ pattern: '^[A-Za-z0-9][A-Za-z0-9._@-]{2,63}$', description: 'Unique partner name, 3 to 64 characters' }),
    password: Password,
    ipAllowlist: IpAllowlist,
    rewardTypes: RewardTypes,
    status: Type.Optional(Status),
  },
  { additionalProperties: false },
);

export const UpdatePartnerBody = Type.Object(
  {
    status: Type.Optional(Status),
    password: Type.Optional(Password),
    ipAllowlist: Type.Optional(IpAllowlist),
    rewardTypes: Type.Optional(RewardTypes),
  },
  { additionalProperties: false, minProperties: 1 },
);

export const PartnerView = Type.Object({
  id: Type.String(),
  login: Type.String(),
  status: Status,
  ipAllowlist: Type.Array(Type.String()),
  rewardTypes: Type.Array(Type.String()),
  createdAt: Type.String({ format: 'date-time' }),
  updatedAt: Type.String({ format: 'date-time' }),
});

const LoginParams = Type.Object({ login: Type.String() });
const errorResponses = { '4xx': ErrorBody, '5xx': ErrorBody };

/** The partner registry: create, list, show, change and remove partners. Responses never carry a hash. */
export async function adminPartnerRoutes(app: FastifyInstance, { gateway }: { gateway: Gateway }): Promise<void> {
  const partners = gateway.partnerAdmin;
  app.post('/admin/v1/partners', { config: { audit: 'partner.create' }, schema: { body: CreatePartnerBody, response: { 201: PartnerView, ...errorResponses } } }, async (request, reply) => {
    const body = request.body as Static<typeof CreatePartnerBody>;
    request.auditPartner = body.login;
    const created = await partners.create(body);
    request.auditDetails = { after: auditable(created) };
    reply.code(201);
    return created;
  });
  app.get('/admin/v1/partners', { schema: { response: { 200: Type.Object({ partners: Type.Array(PartnerView) }), ...errorResponses } } }, async () => ({
    partners: await partners.list(),
  }));
  app.get('/admin/v1/partners/:login', { schema: { params: LoginParams, response: { 200: PartnerView, ...errorResponses } } }, async (request) =>
    partners.get((request.params as Static<typeof LoginParams>).login),
  );
  app.patch(
    '/admin/v1/partners/:login',
    { config: { audit: 'partner.update' }, schema: { params: LoginParams, body: UpdatePartnerBody, response: { 200: PartnerView, ...errorResponses } } },
    async (request) => {
      const { login } = request.params as Static<typeof LoginParams>;
      const body = request.body as Static<typeof UpdatePartnerBody>;
      request.auditPartner = login;
      const before = await partners.get(login);
      const after = await partners.update(login, body);
      request.auditDetails = { before: auditable(before), after: auditable(after), passwordChanged: body.password !== undefined };
      return after;
    },
  );
  app.delete('/admin/v1/partners/:login', { config: { audit: 'partner.delete' }, schema: { params: LoginParams, response: errorResponses } }, async (request, reply) => {
    const { login } = request.params as Static<typeof LoginParams>;
    request.auditPartner = login;
    const before = await partners.get(login);
    await partners.remove(login);
    request.auditDetails = { before: auditable(before) };
    return reply.code(204).send();
  });
}

/** What the audit trail keeps of a partner: the settings an operator changes, never a password or hash. */
function auditable(partner: { status: string; ipAllowlist: string[]; rewardTypes: string[] }) {
  return { status: partner.status, ipAllowlist: partner.ipAllowlist, rewardTypes: partner.rewardTypes };
}
