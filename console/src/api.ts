import { createAdminApi, type AdminApi, type AdminRequest } from '@partner-gateway/contract/admin-api-client';
import type { ErrorBody, Problem } from '@partner-gateway/contract/error-body';
import { forgetToken, readToken } from './session';

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

type Listener = () => void;
const signedOutListeners = new Set<Listener>();

/** Called when the API refuses the token: the console forgets it and asks for it again. */
export function onSignedOut(listener: Listener): () => void {
  signedOutListeners.add(listener);
  return () => signedOutListeners.delete(listener);
}

/**
 * The console's transport for the contract's typed admin client: the browser's fetch with the bearer token
 * (`token` when signing in, else the one kept for this tab). Resolves with the parsed JSON (undefined for
 * 204); rejects with an ApiError carrying the API's description and problems, or a description of the
 * network failure. A 401 with the kept token signs the tab out.
 */
async function send({ method, path, json, file }: AdminRequest, token?: string): Promise<unknown> {
  const presented = token ?? readToken();
  const headers: Record<string, string> = { accept: 'application/json' };
  if (presented) headers.authorization = `Bearer ${presented}`;
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
    response = await fetch(path, { method, headers, body: payload ?? null, credentials: 'omit', cache: 'no-store' });
  } catch {
    throw new ApiError(0, 'The gateway did not answer; check that it is running and try again.');
  }
  if (response.status === 204) return undefined;
  const text = await response.text();
  let parsed: unknown;
  try {
    parsed = text ? JSON.parse(text) : undefined;
  } catch {
    parsed = undefined;
  }
  if (!response.ok) {
    const error = parsed as Partial<ErrorBody> | undefined;
    const failure = new ApiError(response.status, error?.description_status ?? `The gateway answered ${response.status}.`, error?.errors ?? []);
    if (response.status === 401 && token === undefined) {
      forgetToken();
      for (const listener of signedOutListeners) listener();
    }
    throw failure;
  }
  return parsed;
}

/** The admin API with the tab's token. */
export const admin: AdminApi = createAdminApi((request) => send(request));

/** The admin API with a token being tried (signing in): a 401 only refuses it. */
export function adminWithToken(token: string): AdminApi {
  return createAdminApi((request) => send(request, token));
}
