import { request as httpRequest } from 'node:http';
import fc from 'fast-check';
import type { FastifyInstance } from 'fastify';
import { FORM, requests, valid, type Document, type GeneratedRequest, type Operation } from './document-requests.js';

/**
 * The checks that hold a document to the server it describes, each returning what it found instead of failing:
 * strict-documents.test.ts runs them on the served documents (and expects nothing), and
 * reintroduced-defects.test.ts on copies that have a defect put back (and expects each to be found).
 */

interface Answer {
  status: number;
  body: { description_status?: string; error?: string; errors?: Array<{ field?: string; message: string }> };
}

/**
 * The refusals of valid-shaped requests that no schema can express, by operation: each is a rule between
 * several values or about what a value means (its cryptography, its address, another request's state), and
 * each is stated in the operation's description.
 */
const UNEXPRESSIBLE: Record<string, (request: GeneratedRequest, answer: Answer) => boolean> = {
  // The seed's banks call: without a token, all three query parameters, partnerPassword a compact JWE and
  // useAuthByCert=Y, checked in the documented order (422 missing, 422 not encrypted, 422 useAuthByCert).
  listBanks: (request, answer) => answer.status === 422 && request.headers.authorization === undefined,
  // An allowlist entry is an address or a CIDR without host bits (one function decides, normalizeCidr).
  createPartner: (_request, answer) => onlyFields(answer, /^ipAllowlist\[\d+\]$/),
  updatePartner: (_request, answer) => onlyFields(answer, /^ipAllowlist\[\d+\]$/),
  // A key must be a valid public key; a jwksUri must be fetched, from a public address, as a JWK Set.
  setPartnerJwks: (_request, answer) => onlyFields(answer, /^(keys\[\d+\].*|jwksUri)$/),
  // A certificate must parse as one PEM certificate, unexpired; a subject DN as an RFC 4514 name.
  setPartnerCertificates: (_request, answer) => onlyFields(answer, /^(certificates.*|subjectDn)$/),
  // `to` must be later than `from`.
  exportAudit: (_request, answer) => onlyFields(answer, /^to$/) && answer.body.errors?.[0]?.message === 'must be later than from',
  // An import file's rows are read and checked by the importer (JSON, CSV or ED807), not by a schema.
  importBanks: (_request, answer) => answer.status === 422,
  // A participant list's entries are read and checked by its reader (JSON or CSV), not by a schema.
  importParticipants: (_request, answer) => answer.status === 422,
  // Each BIC at most once in a list.
  // A webhook URL must parse as an absolute URL (and, in production, be https to a public address).
  createPartnerWebhook: (_request, answer) => answer.status === 422 && /webhook URL/.test(answer.body.description_status ?? ''),
  // An exclusion rule's value is 1 to 8 words of letters or digits (the description says so): words, not a schema pattern.
  addBankExclusionRule: (_request, answer) => onlyFields(answer, /^value$/),
  replaceBanks: (_request, answer) => answer.status === 422 && (answer.body.errors ?? []).every((problem) => /^duplicates BIC/.test(problem.message)),
};

function onlyFields(answer: Answer, field: RegExp): boolean {
  return answer.status === 422 && (answer.body.errors ?? []).length > 0 && answer.body.errors!.every((problem) => field.test(problem.field ?? ''));
}

async function inject(app: FastifyInstance, request: { method: string; url: string; headers: Record<string, string>; payload?: string }) {
  return app.inject({ method: request.method as 'GET', url: request.url, headers: request.headers, ...(request.payload !== undefined ? { payload: request.payload } : {}) });
}

async function checkValid(app: FastifyInstance, operation: Operation, request: GeneratedRequest): Promise<void> {
  const response = await inject(app, request);
  const where = `${operation.operationId} ${request.method} ${request.url} ${request.payload ?? ''} -> ${response.statusCode} ${response.body.slice(0, 300)}`;
  if (response.statusCode >= 500) throw new Error(`no 5xx: ${where}`);
  if (response.statusCode !== 400 && response.statusCode !== 422) return;
  const answer: Answer = { status: response.statusCode, body: response.json() };
  if (!UNEXPRESSIBLE[operation.operationId]?.(request, answer)) throw new Error(`a request the document calls valid is not refused: ${where}`);
}

/** Runs one property, keeping its counterexample instead of stopping, so that one run names every defect. */
async function collect(failures: string[], property: () => Promise<void>): Promise<void> {
  try {
    await property();
  } catch (error) {
    const cause = (error as Error & { cause?: Error }).cause;
    const counterexample = String((error as Error).message).split('\n').find((line) => line.startsWith('Counterexample')) ?? String(error);
    failures.push(cause ? cause.message.split('\n')[0]! : counterexample);
  }
}

/**
 * Requests the operation's document calls valid (its parameters, body and form within their schemas) that the
 * server refuses for their shape (400, 422, outside UNEXPRESSIBLE) or fails on (5xx): at most one, the smallest.
 */
export async function validRequestRefusals(app: FastifyInstance, path: string, method: string, operation: Operation, auth: fc.Arbitrary<Record<string, string>>, numRuns: number): Promise<string[]> {
  const failures: string[] = [];
  await collect(failures, () => fc.assert(fc.asyncProperty(requests(path, method, operation, auth, { onlyValid: true }), (request) => checkValid(app, operation, request)), { numRuns }));
  return failures;
}

/**
 * RFC 6749 section 3.2: every parameter of an OAuth form at most once. A schema cannot show it, so the document
 * must say it in words: the form's (or the operation's) description, and its 400's. Sends valid forms with one
 * parameter repeated; returns what the server and the document disagree on.
 */
export async function repeatedParameterFailures(app: FastifyInstance, path: string, method: string, operation: Operation, numRuns: number): Promise<string[]> {
  const form = operation.requestBody?.content[FORM]?.schema;
  if (!form) return [];
  const failures: string[] = [];
  const forms = valid(form)
    .map((value) => Object.entries(value as Record<string, string>))
    .filter((entries) => entries.length > 0);
  await collect(failures, () =>
    fc.assert(
      fc.asyncProperty(forms, fc.nat(), async (entries, pick) => {
        const [name, value] = entries[pick % entries.length]!;
        const payload = new URLSearchParams([...entries, [name, value]]).toString();
        const response = await inject(app, { method: method.toUpperCase(), url: path, headers: { 'content-type': FORM }, payload });
        const body = response.json() as { error?: string; error_description?: string };
        const where = `${operation.operationId} ${payload} -> ${response.statusCode} ${response.body.slice(0, 200)}`;
        if (response.statusCode !== 400 || body.error !== 'invalid_request' || body.error_description !== `parameter ${name} is repeated`) throw new Error(`a repeated parameter is refused as repeated: ${where}`);
        const said = [operation.requestBody as { description?: string }, form, operation as { description?: string }].map((part) => part?.description ?? '').join(' ');
        if (!/at most once/.test(said)) throw new Error(`${operation.operationId}: the server refuses a repeated parameter, and the form does not say each is sent at most once`);
        const refusal = (operation.responses['400'] as { description?: string } | undefined)?.description ?? '';
        if (!/repeated/.test(refusal)) throw new Error(`${operation.operationId}: the 400 for a repeated parameter is not documented`);
      }),
      { numRuns },
    ),
  );
  return failures;
}

/** Every method Fastify can route (http.METHODS but CONNECT, whose request line names no path), and some nobody knows. */
const ROUTABLE = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS', 'TRACE', 'QUERY', 'PROPFIND', 'SEARCH', 'REPORT', 'LOCK', 'MKCOL', 'PURGE', 'LINK'];
const UNKNOWN = ['FOO', 'BREW', 'XQUERY'];

/** One request over real HTTP (light-my-request never meets Node's parser, which is what refuses an unknown method). */
function send(port: number, method: string, path: string, headers: Record<string, string>): Promise<{ status: number; allow: string | undefined; body: string }> {
  return new Promise((resolve, reject) => {
    // A small JSON body with its length (Node sends DELETE, OPTIONS and TRACE bodies without one otherwise), none with GET or HEAD.
    const body = method === 'GET' || method === 'HEAD' ? undefined : '{}';
    const sized = body === undefined ? headers : { ...headers, 'content-type': 'application/json', 'content-length': String(body.length) };
    const request = httpRequest({ host: '127.0.0.1', port, method, path, agent: false, headers: sized }, (response) => {
      let body = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => (body += chunk));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, allow: response.headers.allow, body }));
    });
    request.on('error', reject);
    request.end(body);
  });
}

function isErrorBody(body: string): boolean {
  try {
    return typeof (JSON.parse(body) as { description_status?: unknown }).description_status === 'string';
  } catch {
    return false;
  }
}

/**
 * Every method a documented path does not serve (QUERY and unknown ones included), sent over real HTTP to the
 * listener at `port`: each must be 405 with `Allow` naming what the path serves, and the JSON error body; an
 * unknown path stays 404. Returns every answer that is not.
 */
export async function unservedMethodFailures(port: number, doc: Pick<Document, 'paths'>, headers: Record<string, string>): Promise<string[]> {
  const failures: string[] = [];
  for (const [path, byMethod] of Object.entries(doc.paths)) {
    const served = Object.keys(byMethod).map((method) => method.toUpperCase());
    if (served.includes('GET')) served.push('HEAD');
    const url = path.replace(/\{[^}]+\}/g, 'x');
    for (const method of [...ROUTABLE, ...UNKNOWN].filter((candidate) => !served.includes(candidate))) {
      const answer = await send(port, method, url, headers);
      const where = `${method} ${url} -> ${answer.status} Allow: ${answer.allow} ${answer.body.slice(0, 120)}`;
      if (answer.status !== 405 || answer.allow?.split(', ').sort().join() !== [...served].sort().join() || (method !== 'HEAD' && !isErrorBody(answer.body))) failures.push(where);
    }
  }
  for (const method of ['GET', 'QUERY', 'FOO']) {
    const answer = await send(port, method, '/no/such/path', headers);
    if (answer.status !== 404 || !isErrorBody(answer.body)) failures.push(`${method} /no/such/path -> ${answer.status} (a 404 expected)`);
  }
  return failures;
}
