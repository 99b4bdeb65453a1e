import { authenticatePartner, type AuthenticationDependencies } from '../auth/steps/authenticate-partner.js';
import { checkIpAllowed } from '../auth/steps/check-ip-allowed.js';
import { checkPartnerActive } from '../auth/steps/check-partner-active.js';
import type { BanksCredentials } from '../auth/steps/read-banks-credentials.js';
import { requireRewardType } from '../auth/steps/require-reward-type.js';
import { SBP_REWARD_TYPE } from '@partner-gateway/contract/patterns';
import type { BankCatalog } from '../banks/cached-bank-repository.js';

export interface BanksDependencies extends AuthenticationDependencies {
  banks: Pick<BankCatalog, 'publicJson'>;
  /** The banks URL a DPoP proof's `htu` must name. */
  urls: { banks: string };
}

/** The seed's bank shape: exactly a name and a BIC. */
export interface PublicBank {
  name: string;
  bic: string;
}

/**
 * The banks operation after its 422 checks: authenticate (401), then blocked (403), address (403) and the
 * `sbp` reward type (403), in that fixed order, then the list in its stable order, as the serialized
 * `{"banks": [...]}` body. `onAuthenticated` learns
 * who proved their identity, even when a later check refuses them (for the audit trail).
 */
export async function listBanksForPartner(
  credentials: BanksCredentials,
  clientAddress: string,
  deps: BanksDependencies,
  onAuthenticated: (login: string) => void = () => {},
): Promise<string> {
  const partner = await authenticatePartner(credentials, clientAddress, deps, deps.urls.banks);
  onAuthenticated(partner.login);
  checkPartnerActive(partner);
  checkIpAllowed(partner, clientAddress);
  if (credentials.scheme === 'password') await deps.guard.succeeded(clientAddress, partner);
  requireRewardType(partner, SBP_REWARD_TYPE);
  // The response body itself, serialized once per change of the list rather than once per request.
  return deps.banks.publicJson();
}
