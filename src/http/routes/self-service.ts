import { SELF_ALLOWLIST_PATH, SELF_CALLS_PATH, SELF_CERTIFICATES_PATH, SELF_KEYS_PATH, SELF_PASSWORD_PATH, SELF_SETTINGS_PATH, SELF_USAGE_PATH } from '@partner-gateway/contract/paths';
import { RotateKeyRequest, RotateKeyResponse, RotatePasswordRequest, RotatePasswordResponse, SelfCallsQuery, SelfCallsResponse, SelfKeysResponse, SelfSettings, SelfUsageResponse, SetAllowlistRequest } from '@partner-gateway/contract/self-service';
import { RotateCertificateRequest, RotateCertificateResponse, SelfCertificatesResponse } from '@partner-gateway/contract/self-service-certificates';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { errors } from '../../errors.js';
import type { Gateway } from '../../gateway.js';
import { partnerCallErrors } from './error-body.js';
import { AUTH_ERRORS, AUTH_TEXT, CHANGE_ERRORS, CHANGE_TEXT, SECURITY } from './self-service-security.js';

/** GET and POST /api/v1/self/keys and /certificates, POST /password, GET /calls, /usage and /settings, PUT /allowlist: a partner serving itself. */
export async function selfServiceRoutes(untyped: FastifyInstance, { gateway }: { gateway: Gateway }): Promise<void> {
  const app = untyped.withTypeProvider<TypeBoxTypeProvider>();
  app.get(
    SELF_KEYS_PATH,
    {
      config: { audit: 'self.keys' },
      schema: {
        operationId: 'selfListKeys',
        tags: ['Self-service'],
        summary: 'Your registered keys still accepted, each with its end when a rotation set one',
        description: AUTH_TEXT,
        security: SECURITY,
        response: { 200: SelfKeysResponse, ...partnerCallErrors(AUTH_ERRORS) },
      },
    },
    async (request) => gateway.selfService.keys(request.requestContext),
  );
  app.post(
    SELF_KEYS_PATH,
    {
      config: { audit: 'self.keys.rotate' },
      schema: {
        operationId: 'selfRotateKey',
        tags: ['Self-service'],
        summary: 'Rotate your private_key_jwt key: the new key works at once, the older ones until the overlap window ends',
        description:
          `${AUTH_TEXT} ${CHANGE_TEXT} The keys registered so far keep working for \`overlapSeconds\` (default 24 hours, at most 30 days), then stop by themselves; ` +
          'no token or session ends at the rotation unless `endSessions` is true (a leaked key). Sign with the new key as soon as the answer comes. A partner publishing its keys at a jwksUri rotates them there (409).',
        security: SECURITY,
        body: RotateKeyRequest,
        response: {
          200: RotateKeyResponse,
          ...partnerCallErrors({
            ...CHANGE_ERRORS,
            409: [errors.keysPublished().description, errors.keyAlreadyRegistered().description, errors.keysChangedMeanwhile().description],
            422: [errors.validationFailed([{ field: 'keys[0]', message: 'must be a JWK object' }]).description],
          }),
        },
      },
    },
    async (request) => gateway.selfService.rotateKey(request.body, request.requestContext),
  );
  app.get(
    SELF_CERTIFICATES_PATH,
    {
      config: { audit: 'self.certificates' },
      schema: {
        operationId: 'selfListCertificates',
        tags: ['Self-service'],
        summary: 'Your registered client certificates still accepted, each with its end when a rotation set one',
        description: AUTH_TEXT,
        security: SECURITY,
        response: { 200: SelfCertificatesResponse, ...partnerCallErrors(AUTH_ERRORS) },
      },
    },
    async (request) => gateway.selfService.certificates(request.requestContext),
  );
  app.post(
    SELF_CERTIFICATES_PATH,
    {
      config: { audit: 'self.certificates.rotate' },
      schema: {
        operationId: 'selfRotateCertificate',
        tags: ['Self-service'],
        summary: 'Rotate your client certificate (self_signed_tls_client_auth): the new one works at once, the older ones until the overlap window ends',
        description:
          `${AUTH_TEXT} ${CHANGE_TEXT} Send the certificate only: a private key anywhere in the body is refused and never stored. The certificates registered so far keep working for \`overlapSeconds\` ` +
          '(default 24 hours, at most 30 days), then stop by themselves; no token or session ends at the rotation unless `endSessions` is true. Present the new certificate as soon as the answer comes.',
        security: SECURITY,
        body: RotateCertificateRequest,
        response: {
          200: RotateCertificateResponse,
          ...partnerCallErrors({
            ...CHANGE_ERRORS,
            409: [errors.certificateAlreadyRegistered().description, errors.certificatesChangedMeanwhile().description],
            422: [errors.validationFailed([{ field: 'certificate', message: 'is not one PEM certificate' }]).description],
          }),
        },
      },
    },
    async (request) => gateway.selfService.rotateCertificate(request.body, request.requestContext),
  );
  app.get(
    SELF_CALLS_PATH,
    {
      config: { audit: 'self.calls' },
      schema: {
        operationId: 'selfListCalls',
        tags: ['Self-service'],
        summary: 'Your calls of the last 30 days, newest first: find one by the X-Request-Id it was answered with',
        description:
          `${AUTH_TEXT} Each refused call carries its reason as a code and in words saying what to change. ` +
          'Successful bearer calls alike within one second share one entry (`count`). Only your own calls are listed: an unknown request id and another partner\'s answer alike, with no calls.',
        security: SECURITY,
        querystring: SelfCallsQuery,
        response: { 200: SelfCallsResponse, ...partnerCallErrors({ ...AUTH_ERRORS, 422: [errors.validationFailed([{ field: 'from', message: 'must be an ISO 8601 date-time' }]).description] }) },
      },
    },
    async (request) => gateway.selfService.calls(request.query, request.requestContext),
  );
  app.get(
    SELF_USAGE_PATH,
    {
      config: { audit: 'self.usage' },
      schema: {
        operationId: 'selfUsage',
        tags: ['Self-service'],
        summary: 'Your calls per UTC day, operation and outcome over the last 30 days',
        description: `${AUTH_TEXT} Computed at most once a minute.`,
        security: SECURITY,
        response: { 200: SelfUsageResponse, ...partnerCallErrors(AUTH_ERRORS) },
      },
    },
    async (request) => gateway.selfService.usage(request.requestContext),
  );
  app.get(
    SELF_SETTINGS_PATH,
    {
      config: { audit: 'self.settings' },
      schema: {
        operationId: 'selfSettings',
        tags: ['Self-service'],
        summary: 'Your settings as the provider set them: allowlist, reward types, methods',
        description: `${AUTH_TEXT} Read-only, but for the allowlist when \`selfManagedAllowlist\` is true (PUT ${SELF_ALLOWLIST_PATH}).`,
        security: SECURITY,
        response: { 200: SelfSettings, ...partnerCallErrors(AUTH_ERRORS) },
      },
    },
    async (request) => gateway.selfService.settings(request.requestContext),
  );
  app.put(
    SELF_ALLOWLIST_PATH,
    {
      config: { audit: 'self.allowlist.set' },
      schema: {
        operationId: 'selfSetAllowlist',
        tags: ['Self-service'],
        summary: 'Replace your IP allowlist, when the provider lets you (selfManagedAllowlist)',
        description:
          `${AUTH_TEXT} ${CHANGE_TEXT} Without the provider's leave, 403 \`allowlist_not_self_managed\`. The new list must include the address this request comes from (422 \`allowlist_excludes_caller\`). ` +
          'It applies to every call from the answer on; no token or session ends.',
        security: SECURITY,
        body: SetAllowlistRequest,
        response: {
          200: SelfSettings,
          ...partnerCallErrors({
            ...CHANGE_ERRORS,
            403: [...CHANGE_ERRORS[403], errors.allowlistNotSelfManaged().description],
            409: [errors.settingsChangedMeanwhile().description],
            422: [errors.validationFailed([{ field: 'ipAllowlist[0]', message: 'is not an IP address or CIDR' }]).description, errors.allowlistExcludesCaller().description],
          }),
        },
      },
    },
    async (request) => gateway.selfService.setAllowlist(request.body, request.requestContext),
  );
  app.post(
    SELF_PASSWORD_PATH,
    {
      config: { audit: 'self.password.rotate' },
      schema: {
        operationId: 'selfRotatePassword',
        tags: ['Self-service'],
        summary: 'A new API password, shown once; the current one keeps working until the overlap window ends',
        description:
          `${AUTH_TEXT} ${CHANGE_TEXT} The gateway makes the password (you cannot choose it) and keeps only its hash. The current password keeps working for \`overlapSeconds\` (default 24 hours, at most 30 days), then stops by itself; ` +
          'a second rotation ends the first one\'s overlap. No token or session ends unless `endSessions` is true. Encrypt the new password for the banks call with the same public key as before.',
        security: SECURITY,
        body: RotatePasswordRequest,
        response: { 200: RotatePasswordResponse, ...partnerCallErrors({ ...CHANGE_ERRORS, 409: [errors.settingsChangedMeanwhile().description], 422: [errors.validationFailed([{ field: 'overlapSeconds', message: 'must be <= 2592000' }]).description] }) },
      },
    },
    async (request) => gateway.selfService.rotatePassword(request.body, request.requestContext),
  );
}
