import assert from 'node:assert/strict';

/** What the checks need of an answer: `app.inject()` responses and answers read off a raw socket both fit. */
export interface AnswerLike {
  statusCode: number;
  headers: Record<string, unknown>;
  body: string;
}

/** Marks of a stack trace or a source path leaking into a body. */
const LEAK = /\n\s*at |\bat [\w.<>]+ \(|file:\/\/|node_modules|\/src\/[\w/-]+\.[jt]s|"stack"/;

/**
 * Fails unless `answer` is an acceptable answer to bad input: never a 5xx, never a stack trace, and every
 * 4xx in the gateway's one error shape, `{"description_status": "<non-empty string>"}` with an optional
 * `errors` list, sent as `application/json`. `allowed`, when given, lists the only statuses expected.
 * `context` goes into every failure message (the input that produced the answer).
 */
export function assertNeverServerError(answer: AnswerLike, context: unknown, allowed?: readonly number[]): void {
  const where = () => `${describe(context)} -> ${answer.statusCode} ${answer.body.slice(0, 300)}`;
  assert.ok(answer.statusCode < 500, `a 5xx: ${where()}`);
  if (allowed) assert.ok(allowed.includes(answer.statusCode), `expected one of ${allowed.join(', ')}: ${where()}`);
  assert.doesNotMatch(answer.body, LEAK, `a stack trace or a source path: ${where()}`);
  if (answer.statusCode >= 400) assertErrorShape(answer, context);
}

/** Fails unless `answer` carries the JSON error shape (an empty body is accepted only for HEAD). */
export function assertErrorShape(answer: AnswerLike, context: unknown, options: { head?: boolean } = {}): void {
  const where = () => `${describe(context)} -> ${answer.statusCode} ${answer.body.slice(0, 300)}`;
  assert.match(String(answer.headers['content-type'] ?? ''), /^application\/json\b/, `not JSON: ${where()}`);
  if (options.head && answer.body === '') return;
  let body: unknown;
  try {
    body = JSON.parse(answer.body);
  } catch {
    assert.fail(`a body that is not JSON: ${where()}`);
  }
  assert.ok(typeof body === 'object' && body !== null && !Array.isArray(body), `not a JSON object: ${where()}`);
  const record = body as Record<string, unknown>;
  assert.deepEqual(
    Object.keys(record).filter((key) => key !== 'description_status' && key !== 'errors' && key !== 'errorCount'),
    [],
    `keys other than description_status, errors and errorCount: ${where()}`,
  );
  assert.ok(typeof record.description_status === 'string' && record.description_status.length > 0, `no description_status: ${where()}`);
  if ('errors' in record) {
    assert.ok(Array.isArray(record.errors), `errors is not a list: ${where()}`);
    for (const detail of record.errors as unknown[]) {
      assert.ok(typeof (detail as { message?: unknown }).message === 'string', `an errors entry without a message: ${where()}`);
    }
  }
}

function describe(context: unknown): string {
  const text = typeof context === 'string' ? context : JSON.stringify(context, (_key, value: unknown) => (value instanceof Uint8Array ? `<${value.length} bytes>` : value));
  return (text ?? String(context)).slice(0, 400);
}
