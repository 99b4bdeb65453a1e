import { createAdminApi, type AdminApi, type AdminRequest } from '@partner-gateway/contract/admin-api-client';
import type { ProposalView } from '@partner-gateway/contract/admin-approvals';
import type { ErrorBody, Problem } from '@partner-gateway/contract/error-body';
import { forgetToken, readCsrfToken, readToken } from './session';

/** A refused or failed call, with the API's `description_status` and its list of problems. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly description: string,
    readonly problems: Problem[] = [],
  ) {
    super(description);
  }
}

/**
 * A change the gateway held for a second operator (maker-checker answered 202): nothing was changed yet, so the
 * page's own "done" path must not run. It is not a failure either: the console says "sent for approval" once, for
 * every page (onProposed), and the forms' error helpers show nothing for it.
 */
export class ProposedChange extends ApiError {
  constructor(readonly proposal: ProposalView) {
    super(202, `This change needs a second operator's approval: it was proposed (${proposal.target}) and waits under Approvals until another operator approves it.`);
  }
}

type Listener = () => void;
const signedOutListeners = new Set<Listener>();
const proposedListeners = new Set<(proposal: ProposalView) => void>();
const changedListeners = new Set<Listener>();

/** Called with each change the gateway held for approval (a 202), whichever page sent it. */
export function onProposed(listener: (proposal: ProposalView) => void): () => void {
  proposedListeners.add(listener);
  return () => proposedListeners.delete(listener);
}

/** Called after every change the gateway accepted or held (what the pending count depends on). */
export function onChanged(listener: Listener): () => void {
  changedListeners.add(listener);
  return () => changedListeners.delete(listener);
}

/** Called when the API refuses the tab's credential: the console forgets it and asks to sign in again. */
export function onSignedOut(listener: Listener): () => void {
  signedOutListeners.add(listener);
  return () => signedOutListeners.delete(listener);
}

/** The headers that prove who this tab is: the token's Authorization, or (cookie session) the CSRF token on changes. */
export function credentialHeaders(method: string, token = readToken()): Record<string, string> {
  if (token) return { authorization: `Bearer ${token}` };
  const csrf = readCsrfToken();
  return csrf && method !== 'GET' && method !== 'HEAD' ? { 'x-csrf-token': csrf } : {};
}

/**
 * The console's transport for the contract's typed admin client: the browser's fetch with the tab's credential
 * (`token` when signing in; else the token kept for this tab, or the session cookie, which the browser sends on
 * this origin's requests only). Resolves with the parsed JSON (undefined for 204); rejects with an ApiError
 * carrying the API's description and problems, a ProposedChange for a 202, or a description of the network
 * failure. A 401 with the tab's credential signs the tab out.
 */
async function send({ method, path, json, file, text: wantsText, binary }: AdminRequest, token?: string): Promise<unknown> {
  const headers: Record<string, string> = { accept: wantsText || binary ? '*/*' : 'application/json', ...credentialHeaders(method, token ?? readToken()) };
  let payload: BodyInit | undefined;
  if (file) {
    headers['content-type'] = file.contentType;
    payload = file.bytes as BodyInit;
  } else if (json !== undefined) {
    headers['content-type'] = 'application/json';
    payload = JSON.stringify(json);
  }
  let response: Response;
  try {
    const cookies = headers.authorization ? 'omit' : 'same-origin';
    response = await fetch(path, { method, headers, body: payload ?? null, credentials: cookies, cache: 'no-store' });
  } catch {
    throw new ApiError(0, 'The gateway did not answer; check that it is running and try again.');
  }
  if (method !== 'GET' && (response.ok || response.status === 202)) for (const listener of changedListeners) listener();
  if (response.status === 204) return undefined;
  // A file (the bank list's CSV): its text as sent, byte-order mark included (Excel needs it), and the version it holds.
  if (wantsText && response.ok) return { text: new TextDecoder('utf-8', { ignoreBOM: true }).decode(await response.arrayBuffer()), version: response.headers.get('x-bank-list-version') };
  if (binary && response.ok) return new Uint8Array(await response.arrayBuffer());
  const text = await response.text();
  let parsed: unknown;
  try {
    parsed = text ? JSON.parse(text) : undefined;
  } catch {
    parsed = undefined;
  }
  if (response.status === 202) {
    const proposal = parsed as ProposalView;
    for (const listener of proposedListeners) listener(proposal);
    throw new ProposedChange(proposal);
  }
  if (!response.ok) {
    const error = parsed as Partial<ErrorBody> | undefined;
    const failure = new ApiError(response.status, error?.description_status ?? `The gateway answered ${response.status}.`, error?.errors ?? []);
    if (response.status === 401 && token === undefined) signOut();
    throw failure;
  }
  return parsed;
}

/** Forgets the tab's credential and tells the app to ask for one. */
export function signOut(): void {
  forgetToken();
  for (const listener of signedOutListeners) listener();
}

/** The admin API with the tab's credential. */
export const admin: AdminApi = createAdminApi((request) => send(request));

/** The admin API with a token being tried (signing in): a 401 only refuses it. */
export function adminWithToken(token: string): AdminApi {
  return createAdminApi((request) => send(request, token));
}

/** The admin API asked without signing the tab out on a 401: whether a session cookie is there, the sign-in options. */
export const probe: AdminApi = createAdminApi((request) => send(request, ''));
