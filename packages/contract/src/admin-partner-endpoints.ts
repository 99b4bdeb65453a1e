import { CredentialEndsQuery, CredentialEndsResponse } from './admin-credential-ends.js';
import { adminEndpoint } from './admin-endpoint.js';
import { PARTNER_CREDENTIAL_ENDPOINTS } from './admin-partner-credential-endpoints.js';
import { ActivityQuery, ActivityResponse, CreatePartnerBody, LoginParams, PartnerList, PartnerView, RewardTypeCatalogue, UpdatePartnerBody } from './admin-partners.js';
import { ADMIN_CREDENTIAL_ENDS_PATH, ADMIN_PARTNER_ACTIVITY_PATH, ADMIN_PARTNERS_PATH, ADMIN_REWARD_TYPES_PATH } from './paths.js';

const tags = ['Partners'];
const PARTNER_PATH = `${ADMIN_PARTNERS_PATH}/:login`;

/**
 * The partner registry: create, list, show, change and remove partners (answers never carry a hash), their
 * credentials (PARTNER_CREDENTIAL_ENDPOINTS), their last calls and the reward types they may get.
 */
export const PARTNER_ENDPOINTS = {
  list: adminEndpoint({ method: 'GET', path: ADMIN_PARTNERS_PATH, operationId: 'listPartners', tags, summary: 'List partners', status: 200, answer: PartnerList, permission: 'read', cli: 'partner list', send: () => ({}) }),
  get: adminEndpoint({
    method: 'GET',
    path: PARTNER_PATH,
    operationId: 'getPartner',
    tags,
    summary: 'Show a partner',
    params: LoginParams,
    status: 200,
    answer: PartnerView,
    permission: 'read',
    cli: 'partner show',
    send: (login: string) => ({ params: { login } }),
  }),
  /** The body's reward types are validated against the gateway's catalogue (REWARD_TYPES), which its document lists. */
  create: adminEndpoint({
    method: 'POST',
    path: ADMIN_PARTNERS_PATH,
    operationId: 'createPartner',
    tags,
    summary: 'Create a partner',
    description: 'Maker-checker action `partner.create`: when it needs approval, the answer is 202 with a proposal (the first password is kept only hashed until then).',
    body: CreatePartnerBody,
    status: 201,
    answer: PartnerView,
    permission: 'partners.write',
    audit: 'partner.create',
    checked: 'partner.create',
    cli: 'partner add',
    send: (body: CreatePartnerBody) => ({ body }),
  }),
  update: adminEndpoint({
    method: 'PATCH',
    path: PARTNER_PATH,
    operationId: 'updatePartner',
    tags,
    summary: 'Change a partner (a block, a new password, taking `password` out of authMethods or requiring bound tokens ends its sessions)',
    description: 'Maker-checker action `partner.update`: when it needs approval, the answer is 202 with a proposal (a new password is kept only hashed until then).',
    params: LoginParams,
    body: UpdatePartnerBody,
    status: 200,
    answer: PartnerView,
    permission: 'partners.write',
    // A partner's credentials and how it may use them are the security role's; so is letting it set its own allowlist.
    fieldPermissions: {
      password: 'partners.credentials',
      authMethods: 'partners.credentials',
      requireSenderConstrainedTokens: 'partners.credentials',
      selfManagedAllowlist: 'partners.credentials',
      previousPasswordUntil: 'partners.credentials',
    },
    audit: 'partner.update',
    checked: 'partner.update',
    cli: 'partner set-ips',
    send: (login: string, body: UpdatePartnerBody) => ({ params: { login }, body }),
  }),
  remove: adminEndpoint({
    method: 'DELETE',
    path: PARTNER_PATH,
    operationId: 'deletePartner',
    tags,
    summary: 'Remove a partner',
    description: 'Maker-checker action `partner.delete`: when it needs approval, the answer is 202 with a proposal.',
    params: LoginParams,
    status: 204,
    answer: { type: 'null', description: 'Removed' },
    permission: 'partners.write',
    audit: 'partner.delete',
    checked: 'partner.delete',
    cli: 'partner remove',
    send: (login: string) => ({ params: { login } }),
  }),
  ...PARTNER_CREDENTIAL_ENDPOINTS,
  /** The last successful partner API call of each login (the console's partner list, in one request). */
  activity: adminEndpoint({
    method: 'GET',
    path: ADMIN_PARTNER_ACTIVITY_PATH,
    operationId: 'getPartnerActivity',
    tags,
    summary: 'The last successful partner API call of each partner',
    querystring: ActivityQuery,
    status: 200,
    answer: ActivityResponse,
    permission: 'read',
    send: (logins: readonly string[]) => ({ query: { logins: logins.join(',') } }),
  }),
  /**
   * The partners' credentials that stop working by themselves within `days` (GET /admin/v1/credential-ends): keys
   * and API passwords at the end of a rotation's overlap window, certificates at their notAfter or rotation end.
   * An operator cuts one short by setting the partner's keys or certificates without it, or with
   * `PATCH /admin/v1/partners/{login}` `{"previousPasswordUntil": null}` for a password.
   *
   * @example
   * ```ts
   * const { ends } = await admin.partners.credentialEnds({ days: '7' });
   * ```
   */
  credentialEnds: adminEndpoint({
    method: 'GET',
    path: ADMIN_CREDENTIAL_ENDS_PATH,
    operationId: 'listCredentialEnds',
    tags,
    summary: "Partners' credentials that stop working by themselves within the next days, soonest first",
    description: 'Keys and replaced API passwords at the end of a rotation\'s overlap window, certificates at their notAfter or rotation end; ones already ended are left out.',
    querystring: CredentialEndsQuery,
    status: 200,
    answer: CredentialEndsResponse,
    permission: 'read',
    cli: 'partner credential-ends',
    send: (query: CredentialEndsQuery = {}) => ({ query }),
  }),
  /** The reward types a partner may be given (GET /admin/v1/reward-types): the catalogue REWARD_TYPES sets. */
  rewardTypes: adminEndpoint({
    method: 'GET',
    path: ADMIN_REWARD_TYPES_PATH,
    operationId: 'listRewardTypes',
    tags,
    summary: 'The reward types a partner may be given (REWARD_TYPES)',
    status: 200,
    answer: RewardTypeCatalogue,
    permission: 'read',
    cli: 'partner reward-types',
    send: () => ({}),
  }),
};
