import { errors } from '../../errors.js';

/**
 * Checks that each named parameter is present and non-empty, in the order given, and returns their values.
 * The first one missing is the one reported: "A required parameter <name> was omitted; ...". An empty value
 * counts as omitted.
 */
export function requireParameters<Name extends string>(
  source: Partial<Record<Name, unknown>>,
  names: readonly Name[],
): Record<Name, string> {
  const values = {} as Record<Name, string>;
  for (const name of names) {
    const value = source[name];
    if (value === undefined || value === null || value === '') throw errors.parameterMissing(name);
    if (typeof value !== 'string') throw errors.parameterInvalid(name);
    values[name] = value;
  }
  return values;
}
