/**
 * The client a request claims to be, for the audit trail of a refused request (whether or not it proves it):
 * the form's client_id, else the Basic user, else the assertion's unverified `iss`. Never a secret.
 */
export function claimedClient(body: unknown, authorization: string | undefined): string | undefined {
  const fields = (body ?? {}) as { client_id?: unknown; client_assertion?: unknown };
  const claimed = typeof fields.client_id === 'string' ? fields.client_id : (basicUser(authorization) ?? assertionIssuer(fields.client_assertion));
  return typeof claimed === 'string' && claimed.length > 0 && claimed.length <= 256 ? claimed : undefined;
}

function basicUser(authorization: string | undefined): string | undefined {
  const encoded = /^Basic +([A-Za-z0-9+/]+=*) *$/i.exec(authorization ?? '')?.[1];
  if (!encoded) return undefined;
  const decoded = Buffer.from(encoded, 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  try {
    return colon > 0 ? decodeURIComponent(decoded.slice(0, colon).replace(/\+/g, ' ')) : undefined;
  } catch {
    return undefined;
  }
}

function assertionIssuer(assertion: unknown): string | undefined {
  if (typeof assertion !== 'string' || assertion.length > 8192) return undefined;
  try {
    const iss = (JSON.parse(Buffer.from(assertion.split('.')[1] ?? '', 'base64url').toString('utf8')) as { iss?: unknown }).iss;
    return typeof iss === 'string' ? iss : undefined;
  } catch {
    return undefined;
  }
}
