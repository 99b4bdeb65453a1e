/**
 * A node:test reporter that writes one JSON line per skipped test or suite: its file, name, whether it is a
 * suite, and the reason. scripts/run-tests.mjs gives it a file of its own beside the usual reporter and
 * summarises it after the run, so that "skipped 1" is never all one learns about seven skipped suites.
 */
export default async function* skippedReporter(source) {
  for await (const event of source) {
    if (event.type !== 'test:pass' && event.type !== 'test:fail') continue;
    const { skip, file, name, details } = event.data;
    if (skip === undefined || skip === false) continue;
    yield `${JSON.stringify({ file: file ?? null, name, suite: details?.type === 'suite', reason: typeof skip === 'string' ? skip : '' })}\n`;
  }
}
