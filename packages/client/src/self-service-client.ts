import type { CreateWebhookBody, ReplayWebhooksBody, ReplayWebhooksResult, RotateWebhookBody, WebhookAttemptList, WebhookEndpointCreated, WebhookEndpointList } from '@partner-gateway/contract/admin-webhooks';
import {
  SELF_ALLOWLIST_PATH,
  SELF_CALLS_PATH,
  SELF_CERTIFICATES_PATH,
  SELF_KEYS_PATH,
  SELF_PASSWORD_PATH,
  SELF_SETTINGS_PATH,
  SELF_USAGE_PATH,
  SELF_WEBHOOK_ATTEMPTS_PATH,
  SELF_WEBHOOK_PATH,
  SELF_WEBHOOK_REPLAY_PATH,
  SELF_WEBHOOK_ROTATE_PATH,
  SELF_WEBHOOKS_PATH,
  SELF_INVITATIONS_PATH,
  SELF_USER_PATH,
  SELF_USERS_PATH,
  selfWebhookPath,
} from '@partner-gateway/contract/paths';
import type { InvitationCreated, InvitePartnerUserRequest, PartnerUserList, PartnerUserRole, PartnerUserView } from '@partner-gateway/contract/partner-users';
import type { RotateKeyRequest, RotateKeyResponse, RotatePasswordRequest, RotatePasswordResponse, SelfCallsQuery, SelfCallsResponse, SelfKeysResponse, SelfSettings, SelfUsageResponse } from '@partner-gateway/contract/self-service';
import type { RotateCertificateRequest, RotateCertificateResponse, SelfCertificatesResponse } from '@partner-gateway/contract/self-service-certificates';
import type { PartnerApiError } from './partner-api-error.js';
import type { CallOptions } from './partner-client-options.js';
import type { AccessToken, Session } from './read-answers.js';
import { outcomeUnknown, type GatewayRequest, type HttpMethod } from './send-request.js';
import { TokenManager } from './token-manager.js';

/** What the self-service client needs of the partner client: its token requests, its way of presenting a token, its sending. */
export interface SelfServiceTransport {
  /** A client-credentials token of scope `self` (bound to the client's DPoP key when it has one). */
  selfToken(): Promise<Session>;
  /** The headers presenting `token` on a `method` request to `url` (with a fresh DPoP proof for a bound token). */
  present(token: AccessToken, method: HttpMethod, url: URL): Promise<Record<string, string>>;
  /** Sends with the client's retries (only those `retryable` allows), DPoP nonce handling and time limits. */
  send(request: () => Promise<GatewayRequest>, options: CallOptions, retryable?: (error: PartnerApiError) => boolean): Promise<unknown>;
}

/**
 * The self-service API (`/api/v1/self/…`) for a partner's own automation: its keys, their rotation with an overlap
 * window, its client certificates and their rotation, its request log, its usage and its webhook endpoints. It holds a token of scope `self` of its own, apart from the one
 * `banks()` uses, taken by client credentials with the partner's key or certificate; a rotation needs the client
 * built with `dpop: true` (or a certificate), since the gateway refuses a credential change with a bearer token.
 *
 * @example
 * ```ts
 * const client = new PartnerClient({ authUrl, apiUrl, login: 'acme', auth: { privateKeyJwt: { privateKey: pem, kid: 'acme-2026' } }, dpop: true });
 * await client.self.rotateKey({ key: newPublicJwk, overlapSeconds: 3600 });
 * const { calls } = await client.self.calls({ requestId: '5f0c…' });
 * const { endpoint, publicKey } = await client.self.createWebhook({ url: 'https://acme.example/hooks' });
 * ```
 */
export class SelfServiceClient {
  readonly #transport: SelfServiceTransport;
  readonly #base: URL;
  readonly #urls: { keys: URL; certificates: URL; password: URL; calls: URL; usage: URL; settings: URL; allowlist: URL; webhooks: URL; users: URL; invitations: URL };
  readonly #tokens: TokenManager;

  constructor(transport: SelfServiceTransport, base: URL, now: () => number) {
    this.#transport = transport;
    this.#base = base;
    const url = (path: string) => new URL(path.slice(1), base);
    this.#urls = { keys: url(SELF_KEYS_PATH), certificates: url(SELF_CERTIFICATES_PATH), password: url(SELF_PASSWORD_PATH), calls: url(SELF_CALLS_PATH), usage: url(SELF_USAGE_PATH), settings: url(SELF_SETTINGS_PATH), allowlist: url(SELF_ALLOWLIST_PATH), webhooks: url(SELF_WEBHOOKS_PATH), users: url(SELF_USERS_PATH), invitations: url(SELF_INVITATIONS_PATH) };
    // Client credentials give no refresh token: every renewal takes a new token.
    this.#tokens = new TokenManager({ logIn: () => transport.selfToken(), refresh: () => transport.selfToken() }, now);
  }

  /** The keys still accepted, each with its end (`expiresAt`) when a rotation set one. */
  async keys(options: CallOptions = {}): Promise<SelfKeysResponse> {
    return (await this.#call('GET', this.#urls.keys, undefined, options)) as SelfKeysResponse;
  }

  /**
   * Registers `body.key`; the keys held so far keep working for `overlapSeconds` (default 24 hours). Sign new
   * assertions with the new key once this resolves. Not retried after a failure whose outcome is unknown: the
   * rotation may have been made (a repeat would answer 409 key_already_registered); read `keys()` then.
   */
  async rotateKey(body: RotateKeyRequest, options: CallOptions = {}): Promise<RotateKeyResponse> {
    return (await this.#call('POST', this.#urls.keys, body, options, (error) => error.retryable && !outcomeUnknown(error))) as RotateKeyResponse;
  }

  /**
   * A new API password made by the gateway, answered this once; the current one keeps working for `overlapSeconds`
   * (default 24 hours). Not retried after a failure whose outcome is unknown: the rotation may have been made and
   * its answer lost, in which case the current password still works until the overlap ends; rotate again.
   */
  async rotatePassword(body: RotatePasswordRequest = {}, options: CallOptions = {}): Promise<RotatePasswordResponse> {
    return (await this.#call('POST', this.#urls.password, body, options, (error) => error.retryable && !outcomeUnknown(error))) as RotatePasswordResponse;
  }

  /** The client certificates still accepted (self_signed_tls_client_auth), each with its end (`retiresAt`) when a rotation set one. */
  async certificates(options: CallOptions = {}): Promise<SelfCertificatesResponse> {
    return (await this.#call('GET', this.#urls.certificates, undefined, options)) as SelfCertificatesResponse;
  }

  /**
   * Registers `body.certificate` (PEM, the certificate only); the certificates held so far keep working for
   * `overlapSeconds` (default 24 hours). Present the new certificate once this resolves. Not retried after a
   * failure whose outcome is unknown: a repeat would answer 409 certificate_already_registered; read `certificates()` then.
   */
  async rotateCertificate(body: RotateCertificateRequest, options: CallOptions = {}): Promise<RotateCertificateResponse> {
    return (await this.#call('POST', this.#urls.certificates, body, options, (error) => error.retryable && !outcomeUnknown(error))) as RotateCertificateResponse;
  }

  /** The partner's calls of the last 30 days, newest first; `requestId` finds the call answered with that X-Request-Id. */
  async calls(query: SelfCallsQuery = {}, options: CallOptions = {}): Promise<SelfCallsResponse> {
    const url = new URL(this.#urls.calls);
    url.search = new URLSearchParams(Object.entries(query).filter((entry): entry is [string, string] => entry[1] !== undefined)).toString();
    return (await this.#call('GET', url, undefined, options)) as SelfCallsResponse;
  }

  /** Calls per UTC day, operation and outcome over the last 30 days. */
  async usage(options: CallOptions = {}): Promise<SelfUsageResponse> {
    return (await this.#call('GET', this.#urls.usage, undefined, options)) as SelfUsageResponse;
  }

  /** The partner's settings as the provider set them (allowlist, reward types, methods). */
  async settings(options: CallOptions = {}): Promise<SelfSettings> {
    return (await this.#call('GET', this.#urls.settings, undefined, options)) as SelfSettings;
  }

  /**
   * Replaces the partner's IP allowlist, when the provider lets it (`selfManagedAllowlist`); the list must include
   * the address the call comes from. Repeating it is harmless (the same list again).
   */
  async setAllowlist(ipAllowlist: string[], options: CallOptions = {}): Promise<SelfSettings> {
    return (await this.#call('PUT', this.#urls.allowlist, { ipAllowlist }, options)) as SelfSettings;
  }

  /** The partner's webhook endpoints (never their secrets). */
  async webhooks(options: CallOptions = {}): Promise<WebhookEndpointList> {
    return (await this.#call('GET', this.#urls.webhooks, undefined, options)) as WebhookEndpointList;
  }

  /**
   * Registers an endpoint; the answer carries its `whsec_` secret (scheme `v1`) or `whpk_` public key (`v1a`, the
   * default), the secret this once. Not retried after a failure whose outcome is unknown (list the endpoints then).
   */
  async createWebhook(body: CreateWebhookBody, options: CallOptions = {}): Promise<WebhookEndpointCreated> {
    return (await this.#call('POST', this.#urls.webhooks, body, options, (error) => error.retryable && !outcomeUnknown(error))) as WebhookEndpointCreated;
  }

  /** Removes an endpoint with its queued deliveries and log. */
  async removeWebhook(id: string, options: CallOptions = {}): Promise<void> {
    await this.#call('DELETE', this.#webhookUrl(SELF_WEBHOOK_PATH, id), undefined, options);
  }

  /** New signing material; the previous one signs beside it for `overlapHours` (default 24). Not retried when the outcome is unknown. */
  async rotateWebhook(id: string, body: RotateWebhookBody = {}, options: CallOptions = {}): Promise<WebhookEndpointCreated> {
    return (await this.#call('POST', this.#webhookUrl(SELF_WEBHOOK_ROTATE_PATH, id), body, options, (error) => error.retryable && !outcomeUnknown(error))) as WebhookEndpointCreated;
  }

  /** The endpoint's delivery log, newest first (at most `limit`, default 100). */
  async webhookAttempts(id: string, limit?: number, options: CallOptions = {}): Promise<WebhookAttemptList> {
    const url = this.#webhookUrl(SELF_WEBHOOK_ATTEMPTS_PATH, id);
    if (limit !== undefined) url.searchParams.set('limit', String(limit));
    return (await this.#call('GET', url, undefined, options)) as WebhookAttemptList;
  }

  /** Sends one event again (`{ eventId }`) or every event since a time (`{ since }`); how many were queued. */
  async replayWebhooks(id: string, body: ReplayWebhooksBody, options: CallOptions = {}): Promise<ReplayWebhooksResult> {
    return (await this.#call('POST', this.#webhookUrl(SELF_WEBHOOK_REPLAY_PATH, id), body, options)) as ReplayWebhooksResult;
  }

  /** The partner's people in the portal, with their pending invitations. */
  async users(options: CallOptions = {}): Promise<PartnerUserList> {
    return (await this.#call('GET', this.#urls.users, undefined, options)) as PartnerUserList;
  }

  /**
   * Invites a person to the portal: the answer's `url` is a single-use link (72 hours), shown this once. A name
   * already registered is recovery (a new passkey, the same role). Not retried when the outcome is unknown.
   */
  async inviteUser(body: InvitePartnerUserRequest, options: CallOptions = {}): Promise<InvitationCreated> {
    return (await this.#call('POST', this.#urls.invitations, body, options, (error) => error.retryable && !outcomeUnknown(error))) as InvitationCreated;
  }

  /** Changes a person's role (409 for the partner's last partner-admin). */
  async changeUserRole(id: string, role: PartnerUserRole, options: CallOptions = {}): Promise<PartnerUserView> {
    return (await this.#call('PUT', new URL(SELF_USER_PATH.replace(':id', encodeURIComponent(id)).slice(1), this.#base), { role }, options)) as PartnerUserView;
  }

  /** Removes a person: their passkeys and sessions end at once. */
  async removeUser(id: string, options: CallOptions = {}): Promise<void> {
    await this.#call('DELETE', new URL(SELF_USER_PATH.replace(':id', encodeURIComponent(id)).slice(1), this.#base), undefined, options);
  }

  #webhookUrl(template: Parameters<typeof selfWebhookPath>[0], id: string): URL {
    return new URL(selfWebhookPath(template, id).slice(1), this.#base);
  }

  async #call(method: HttpMethod, url: URL, body: unknown, options: CallOptions, retryable?: (error: PartnerApiError) => boolean): Promise<unknown> {
    const attempt = (token: AccessToken) =>
      this.#transport.send(
        async () => ({
          operation: 'self',
          method,
          url,
          headers: { ...(await this.#transport.present(token, method, url)), ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
          ...(body === undefined ? {} : { body: JSON.stringify(body) }),
        }),
        options,
        retryable,
      );
    return this.#tokens.withToken(attempt, options.signal);
  }
}
