import { SELF_CALLS_PATH, SELF_KEYS_PATH, SELF_USAGE_PATH } from '@partner-gateway/contract/paths';
import type { RotateKeyRequest, RotateKeyResponse, RotatePasswordRequest, RotatePasswordResponse, SelfCallsQuery, SelfCallsResponse, SelfKeysResponse, SelfSettings, SelfUsageResponse, SetAllowlistRequest } from '@partner-gateway/contract/self-service';
import type { PartnerRequestLog } from '../audit/partner-request-log.js';
import type { RotateCertificateRequest, RotateCertificateResponse, SelfCertificatesResponse } from '@partner-gateway/contract/self-service-certificates';
import type { AuthDependencies } from '../auth/auth-dependencies.js';
import { authenticateSelf } from '../auth/steps/authenticate-self.js';
import { toPartnerKeyView } from '../partners/partner.js';
import { rotatePartnerKey } from '../partners/partner-key-rotation.js';
import { liveKeys } from '../partners/partner-keys.js';
import type { PartnerRepository } from '../partners/partner-repository.js';
import type { RequestContext } from '../request-context.js';
import type { WebhookAdmin } from '../webhooks/webhook-admin.js';
import { readOwnCertificates, rotateOwnCertificate } from './self-service-certificates.js';
import { rotateOwnPassword } from './self-service-password.js';
import { readSelfSettings, setOwnAllowlist } from './self-service-settings.js';
import { createSelfPeopleApi, type SelfPeopleApi } from './self-service-people.js';
import { createSelfWebhooksApi, type SelfWebhooksApi } from './self-service-webhooks.js';
import type { PartnerPeople } from '../partner-users/partner-people.js';
import type { PortalSignIn } from '../partner-users/portal-sign-in.js';

/**
 * The self-service API's operations (`/api/v1/self/…`), for a partner's own automation holding a token of
 * scope `self` (authenticateSelf): each reads or changes the calling partner alone, never one a request names.
 */
export interface SelfServiceApi {
  /** The partner's registered keys still accepted, each with its end when a rotation set one. */
  keys(context: RequestContext): Promise<SelfKeysResponse>;
  /** Adds a key; the older ones keep working for the overlap window (rotatePartnerKey). */
  rotateKey(body: RotateKeyRequest, context: RequestContext): Promise<RotateKeyResponse>;
  /** The partner's own calls of the last 30 days, newest first; by request id, time and outcome. */
  calls(query: SelfCallsQuery, context: RequestContext): Promise<SelfCallsResponse>;
  /** The partner's calls per day, operation and outcome over 30 days. */
  usage(context: RequestContext): Promise<SelfUsageResponse>;
  /** The partner's settings, read-only but for the allowlist when an operator allowed it. */
  settings(context: RequestContext): Promise<SelfSettings>;
  /** A new API password, answered once; the current one works until the overlap ends (rotateOwnPassword). */
  rotatePassword(body: RotatePasswordRequest, context: RequestContext): Promise<RotatePasswordResponse>;
  /** The partner's client certificates still accepted, each with its end when a rotation set one. */
  certificates(context: RequestContext): Promise<SelfCertificatesResponse>;
  /** Adds a client certificate; the older ones keep working for the overlap window (rotateOwnCertificate). */
  rotateCertificate(body: RotateCertificateRequest, context: RequestContext): Promise<RotateCertificateResponse>;
  /** Replaces the partner's own IP allowlist (setOwnAllowlist). */
  setAllowlist(body: SetAllowlistRequest, context: RequestContext): Promise<SelfSettings>;
  /** The partner's webhook endpoints: register, rotate the secret, see deliveries, replay. */
  webhooks: SelfWebhooksApi;
  /** The partner's people in the portal: list, invite, change a role, remove. */
  people: SelfPeopleApi;
}

export type SelfServiceDependencies = Pick<AuthDependencies, 'tokens' | 'families' | 'dpop' | 'guard' | 'now'> & {
  partners: AuthDependencies['partners'] & Pick<PartnerRepository, 'update'>;
  requestLog: PartnerRequestLog;
  webhooks: WebhookAdmin;
  /** The portal's sessions: a browser's cookie authenticates as a token does (authenticatePortalSession). */
  portal?: Pick<PortalSignIn, 'session'>;
};

/**
 * @example
 * ```ts
 * const self = createSelfServiceApi({ ...auth, requestLog });
 * const { keys } = await self.keys(request.requestContext);
 * ```
 */
export function createSelfServiceApi(deps: SelfServiceDependencies & { people: PartnerPeople }): SelfServiceApi {
  return {
    async keys(context) {
      const partner = await authenticateSelf(context, 'GET', SELF_KEYS_PATH, deps);
      return { keys: liveKeys(partner.jwks, deps.now()).map(toPartnerKeyView) };
    },
    async rotateKey(body, context) {
      const partner = await authenticateSelf(context, 'POST', SELF_KEYS_PATH, deps, { changes: true });
      const rotation = await rotatePartnerKey(partner, body, deps);
      context.audit.details = {
        added: rotation.added.kid,
        retiring: rotation.after.filter((key) => key !== rotation.added).map((key) => ({ kid: key.kid, expiresAt: key.expiresAt })),
        before: rotation.before.map((key) => key.kid),
        sessionsEnded: body.endSessions === true,
      };
      return { keys: rotation.after.map(toPartnerKeyView), added: rotation.added.kid };
    },
    async calls(query, context) {
      const partner = await authenticateSelf(context, 'GET', SELF_CALLS_PATH, deps);
      return deps.requestLog.calls(partner.login, query);
    },
    async usage(context) {
      const partner = await authenticateSelf(context, 'GET', SELF_USAGE_PATH, deps);
      return deps.requestLog.usage(partner.login);
    },
    settings: (context) => readSelfSettings(context, deps),
    setAllowlist: (body, context) => setOwnAllowlist(body, context, deps),
    rotatePassword: (body, context) => rotateOwnPassword(body, context, deps),
    certificates: (context) => readOwnCertificates(context, deps),
    rotateCertificate: (body, context) => rotateOwnCertificate(body, context, deps),
    webhooks: createSelfWebhooksApi(deps),
    people: createSelfPeopleApi(deps),
  };
}
