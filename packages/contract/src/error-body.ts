import { Type, type Static } from 'typebox';

/** One offending field (`ipAllowlist[1]`, `body.bic`), file line or entry, and why it was refused. */
export const Problem = Type.Object({
  field: Type.Optional(Type.String()),
  line: Type.Optional(Type.Integer()),
  entry: Type.Optional(Type.String()),
  message: Type.String(),
}, { title: 'Problem' });
export type Problem = Static<typeof Problem>;

/**
 * Every error response of both APIs: the interface specification's `description_status`, plus the list of
 * offending fields or rows when there is one.
 *
 * @example
 * ```json
 * { "description_status": "User failed authorization; access to the resource is restricted" }
 * ```
 */
export const ErrorBody = Type.Object({
  description_status: Type.String(),
  errors: Type.Optional(Type.Array(Problem)),
  /** How many problems there are in all, when `errors` lists only the first 100 of them (a bank file of many bad rows). */
  errorCount: Type.Optional(Type.Integer()),
}, { title: 'ErrorBody' });
export type ErrorBody = Static<typeof ErrorBody>;

/**
 * A problem as one line, "where: message": the field, else the line, else the entry; the message alone
 * when it names none. The server's validation text, the CLI and the console all word problems this way.
 *
 * @example
 * ```ts
 * describeProblem({ field: 'ipAllowlist[1]', message: 'is not an IP address or CIDR' }); // 'ipAllowlist[1]: is not ...'
 * ```
 */
export function describeProblem(problem: Problem, fallback?: string): string {
  const where = problem.field ?? (problem.line !== undefined ? `line ${problem.line}` : problem.entry) ?? fallback;
  return where ? `${where}: ${problem.message}` : problem.message;
}
