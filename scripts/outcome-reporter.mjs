/**
 * A node:test reporter that writes one JSON line per skipped or failed test or suite: its file, name, whether it
 * is a suite, and the reason (a skip's reason; a failure's error, its first line). scripts/run-tests.mjs gives it
 * a file of its own beside the usual reporter and summarises it after each tier and again after the last, so that
 * "skipped 1" is never all one learns about seven skipped suites, and the last lines of a long run name what failed.
 */
export default async function* outcomeReporter(source) {
  for await (const event of source) {
    if (event.type !== 'test:pass' && event.type !== 'test:fail') continue;
    const { skip, file, name, details } = event.data;
    const suite = details?.type === 'suite';
    if (skip !== undefined && skip !== false) {
      yield `${JSON.stringify({ outcome: 'skipped', file: file ?? null, name, suite, reason: typeof skip === 'string' ? skip : '' })}\n`;
    } else if (event.type === 'test:fail' && !suite) {
      // A suite fails when a test in it does: the test is what to name. A failed hook is reported as a test too.
      yield `${JSON.stringify({ outcome: 'failed', file: file ?? null, name, suite, reason: firstLine(details?.error) })}\n`;
    }
  }
}

/** What failed, in one line: node wraps a test's own error in ERR_TEST_FAILURE, whose cause is the error thrown. */
function firstLine(error) {
  const cause = error?.cause ?? error;
  const text = String(cause?.message ?? cause ?? '');
  return text.split('\n').find((line) => line.trim() !== '')?.trim().slice(0, 300) ?? '';
}
