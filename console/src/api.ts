import { forgetToken, readToken } from './session';

/** One problem the admin API reported: a field (`ipAllowlist[1]`, `line 3.bic`) or a file line, and why. */
export interface Problem {
  field?: string;
  line?: number;
  message: string;
}

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

export interface Partner {
  id: string;
  login: string;
  status: 'active' | 'blocked';
  ipAllowlist: string[];
  rewardTypes: string[];
  createdAt: string;
  updatedAt: string;
}

export interface Bank {
  bic: string;
  name: string;
  nameEn: string | null;
  sbpMemberId: string | null;
  position: number;
  updatedAt: string;
}

export interface BankChanges {
  added: string[];
  changed: string[];
  removed: string[];
}

export interface ImportReport extends BankChanges {
  received: number;
}

export interface Key {
  kid: string;
  use: 'sig' | 'enc';
  alg: string;
  active: boolean;
  createdAt: string;
  retiredAt: string | null;
  usableUntil: string | null;
}

export interface AuditEntry {
  id: string;
  at: string;
  action: string;
  outcome: 'success' | 'failure';
  status: number | null;
  partner: string | null;
  clientAddress: string | null;
  reason: string | null;
  requestId: string | null;
  details: Record<string, unknown> | null;
  /** Calls the entry stands for: more than 1 for aggregated successful bearer banks calls. */
  count: number;
  lastRequestId: string | null;
}

export interface AuditPage {
  entries: AuditEntry[];
  nextCursor: string | null;
}

export interface PartnerActivity {
  login: string;
  lastSuccessfulCall: { id: string; at: string; action: string } | null;
}

type Listener = () => void;
const signedOutListeners = new Set<Listener>();

/** Called when the API refuses the token: the console forgets it and asks for it again. */
export function onSignedOut(listener: Listener): () => void {
  signedOutListeners.add(listener);
  return () => signedOutListeners.delete(listener);
}

export interface CallOptions {
  /** A body sent as it is (a file), with this Content-Type. */
  raw?: { body: BodyInit; contentType: string };
  /** The token to try (signing in); otherwise the one kept for this tab. */
  token?: string;
}

/**
 * Calls the admin API with the bearer token. Resolves with the parsed JSON (undefined for 204); rejects with
 * an ApiError carrying the API's description and problems, or a description of the network failure.
 */
export async function call<T>(method: string, path: string, body?: unknown, options: CallOptions = {}): Promise<T> {
  const token = options.token ?? readToken();
  const headers: Record<string, string> = { accept: 'application/json' };
  if (token) headers.authorization = `Bearer ${token}`;
  let payload: BodyInit | undefined;
  if (options.raw) {
    headers['content-type'] = options.raw.contentType;
    payload = options.raw.body;
  } else if (body !== undefined) {
    headers['content-type'] = 'application/json';
    payload = JSON.stringify(body);
  }
  let response: Response;
  try {
    response = await fetch(path, { method, headers, body: payload ?? null, credentials: 'omit', cache: 'no-store' });
  } catch {
    throw new ApiError(0, 'The gateway did not answer; check that it is running and try again.');
  }
  if (response.status === 204) return undefined as T;
  const text = await response.text();
  let json: unknown;
  try {
    json = text ? JSON.parse(text) : undefined;
  } catch {
    json = undefined;
  }
  if (!response.ok) {
    const error = json as { description_status?: string; errors?: Problem[] } | undefined;
    const failure = new ApiError(response.status, error?.description_status ?? `The gateway answered ${response.status}.`, error?.errors ?? []);
    if (response.status === 401 && options.token === undefined) {
      forgetToken();
      for (const listener of signedOutListeners) listener();
    }
    throw failure;
  }
  return json as T;
}

/** `/admin/v1/...` with query parameters, leaving out the empty ones. */
export function withQuery(path: string, query: Record<string, string | undefined>): string {
  const search = new URLSearchParams();
  for (const [name, value] of Object.entries(query)) if (value !== undefined && value !== '') search.set(name, value);
  const text = search.toString();
  return text ? `${path}?${text}` : path;
}
