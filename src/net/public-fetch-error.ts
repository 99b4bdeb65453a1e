/**
 * Why a URL was refused or its fetch failed:
 * - `url`: not an absolute URL, or it carries credentials or a fragment;
 * - `scheme`: not https (plain http only to a loopback host outside production);
 * - `address`: the host is, or resolves to, an address the policy refuses (non-global in production);
 * - `dns`: the name did not resolve;
 * - `connect`, `tls`: no connection, or the server's certificate was not valid for the host;
 * - `timeout`: the whole fetch (resolution, redirects, body) outlasted `timeoutMs`; `aborted`: the caller's signal;
 * - `redirect`: a redirect that was not to be followed (or one too many); `status`: any other non-2xx answer;
 * - `too_large`: the body (declared or streamed) exceeded `maxBytes`.
 */
export type PublicFetchRefusal = 'url' | 'scheme' | 'address' | 'dns' | 'connect' | 'tls' | 'timeout' | 'aborted' | 'redirect' | 'status' | 'too_large';

/**
 * The one error `checkPublicUrl` and `fetchPublicResource` throw. Its message is safe to show to whoever gave
 * the URL: it names the rule or the HTTP status, never a resolved address, a system error's text or a secret
 * (URL rules read as a field message: "must be an https URL"). The caller maps it to its own error.
 */
export class PublicFetchError extends Error {
  override readonly name = 'PublicFetchError';

  constructor(
    readonly reason: PublicFetchRefusal,
    message: string,
    /** The HTTP status, for `status` and `redirect`. */
    readonly status?: number,
  ) {
    super(message);
  }
}
