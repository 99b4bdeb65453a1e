import { SELF_ALLOWLIST_PATH, SELF_SETTINGS_PATH } from '@partner-gateway/contract/paths';
import type { SelfSettings, SetAllowlistRequest } from '@partner-gateway/contract/self-service';
import type { AuthDependencies } from '../auth/auth-dependencies.js';
import { authenticateSelf } from '../auth/steps/authenticate-self.js';
import { errors, type ErrorDetail } from '../errors.js';
import { isAddressAllowed, normalizeAllowlist } from '../partners/ip-allowlist.js';
import type { Partner } from '../partners/partner.js';
import type { PartnerRepository } from '../partners/partner-repository.js';
import type { RequestContext } from '../request-context.js';

export type SelfSettingsDependencies = Pick<AuthDependencies, 'tokens' | 'families' | 'dpop' | 'guard'> & {
  partners: AuthDependencies['partners'] & Pick<PartnerRepository, 'update'>;
};

/** GET /api/v1/self/settings: the calling partner's settings, as operators set them. */
export async function readSelfSettings(context: RequestContext, deps: SelfSettingsDependencies): Promise<SelfSettings> {
  return toSelfSettings(await authenticateSelf(context, 'GET', SELF_SETTINGS_PATH, deps));
}

/**
 * PUT /api/v1/self/allowlist: the calling partner replaces its own IP allowlist, when an operator allowed it
 * (`selfManagedAllowlist`; 403 `allowlist_not_self_managed` otherwise). The list is normalized as an operator's is
 * (422 naming each bad entry), must include the address the request comes from (422 `allowlist_excludes_caller`:
 * a partner must not lock itself out of the one call that could undo it), and is a compare-and-set on the partner
 * (409 `settings_changed_meanwhile`). No session ends: the new list applies to every call from now on.
 *
 * @example
 * ```ts
 * await setOwnAllowlist({ ipAllowlist: ['203.0.113.0/24'] }, request.requestContext, deps);
 * ```
 */
export async function setOwnAllowlist(body: SetAllowlistRequest, context: RequestContext, deps: SelfSettingsDependencies): Promise<SelfSettings> {
  const partner = await authenticateSelf(context, 'PUT', SELF_ALLOWLIST_PATH, deps, { changes: true });
  if (!partner.selfManagedAllowlist) throw errors.allowlistNotSelfManaged();
  const problems: ErrorDetail[] = [];
  const ipAllowlist = normalizeAllowlist(body.ipAllowlist, problems);
  if (problems.length > 0) throw errors.validationFailed(problems);
  // A client would lock itself out; a person in the portal is not subject to the allowlist and cannot.
  if (!context.portalUser && !isAddressAllowed(context.clientAddress, ipAllowlist)) throw errors.allowlistExcludesCaller();
  const updated = await deps.partners.update(partner.login, { ipAllowlist }, { ifUpdatedAt: partner.updatedAt });
  if (!updated) throw errors.settingsChangedMeanwhile();
  context.audit.details = { before: { ipAllowlist: partner.ipAllowlist }, after: { ipAllowlist: updated.ipAllowlist } };
  return toSelfSettings(updated);
}

/** What a partner sees of its own settings: never a hash, a key or the token generation. */
function toSelfSettings(partner: Partner): SelfSettings {
  return {
    login: partner.login,
    status: partner.status,
    ipAllowlist: partner.ipAllowlist,
    rewardTypes: partner.rewardTypes,
    authMethods: partner.authMethods,
    requireSenderConstrainedTokens: partner.requireBoundTokens,
    selfManagedAllowlist: partner.selfManagedAllowlist,
  };
}
