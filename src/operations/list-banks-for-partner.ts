import { SBP_REWARD_TYPE } from '@partner-gateway/contract/patterns';
import { BANK_OPT_IN_FIELDS, type BankOptInField, type BanksQuery } from '@partner-gateway/contract/public-api';
import { errors } from '../errors.js';
import type { AuthDependencies } from '../auth/auth-dependencies.js';
import { authenticatePartner } from '../auth/steps/authenticate-partner.js';
import { checkPartnerAccess, requireRewardType } from '../auth/steps/check-partner-access.js';
import { readBanksCredentials } from '../auth/steps/read-banks-credentials.js';
import type { BankCatalog, PublishedBanks } from '../banks/bank-catalog.js';
import type { RequestContext } from '../request-context.js';

export type BanksDependencies = Pick<AuthDependencies, 'partners' | 'guard' | 'passwords' | 'replay' | 'decryptPassword' | 'tokens' | 'families' | 'dpop'> & {
  banks: Pick<BankCatalog, 'published'>;
  /** The banks path, which a DPoP proof's `htu` names on the listener's public URL. */
  paths: { banks: string };
};

/**
 * The banks operation: 422 for missing or unencrypted credentials, then authenticate (401), then blocked (403),
 * address (403) and the `sbp` reward type (403), in that fixed order, then the list in its stable order, as the
 * serialized `{"banks": [...]}` body of the current version with its strong ETag and version number (with
 * `fields`, the opt-in fields added; an unknown name is a 422). The context's audit entry learns who proved their identity, even when a
 * later check refuses them.
 *
 * @example
 * ```ts
 * const body = await listBanksForPartner({ partnerName: 'acme', partnerPassword: jwe, useAuthByCert: 'Y' }, context, deps);
 * ```
 */
export async function listBanksForPartner(query: BanksQuery, context: RequestContext, deps: BanksDependencies): Promise<PublishedBanks> {
  const credentials = readBanksCredentials(query, context);
  const partner = await authenticatePartner(credentials, context, deps.paths.banks, deps);
  context.audit.partner = partner.login;
  checkPartnerAccess(partner, context.clientAddress);
  if (credentials.scheme === 'password') await deps.guard.succeeded(context.clientAddress, partner);
  requireRewardType(partner, SBP_REWARD_TYPE);
  // The response body itself, serialized once per version of the list rather than once per request.
  return deps.banks.published(query.fields === undefined ? undefined : optInFields(query.fields));
}

function optInFields(value: string): BankOptInField[] {
  const names = value.split(',').map((name) => name.trim()).filter((name) => name !== '');
  if (!names.every((name): name is BankOptInField => (BANK_OPT_IN_FIELDS as readonly string[]).includes(name))) throw errors.parameterInvalid('fields');
  return names;
}
