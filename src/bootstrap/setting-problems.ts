import type { TObject, TSchema } from 'typebox';
import { Value } from 'typebox/value';

/** A setting's schema as this reads it: TypeBox's keywords, and `valid`, the words for a valid value where the keywords say too little. */
interface SettingSchema {
  type?: string;
  anyOf?: Array<{ const?: unknown }>;
  minimum?: number;
  maximum?: number;
  minLength?: number;
  maxLength?: number;
  pattern?: string;
  valid?: string;
}

/**
 * What a valid value of a setting looks like, in words: the schema's `valid` when it has one, else what its
 * keywords say (the literals of a union, an integer's range, a string's length).
 *
 * @example
 * ```ts
 * validValue(Type.Integer({ minimum: 0, maximum: 65535 })); // 'an integer from 0 to 65535'
 * ```
 */
export function validValue(schema: TSchema): string {
  const setting = schema as SettingSchema;
  if (setting.valid !== undefined) return setting.valid;
  if (setting.anyOf) return `one of ${setting.anyOf.map((option) => String(option.const)).join(', ')}`;
  if (setting.type === 'boolean') return 'true or false';
  if (setting.type === 'integer') {
    if (setting.minimum !== undefined && setting.maximum !== undefined) return `an integer from ${setting.minimum} to ${setting.maximum}`;
    return setting.minimum !== undefined ? `an integer of at least ${setting.minimum}` : 'an integer';
  }
  const parts = ['text'];
  if (setting.minLength !== undefined && setting.minLength > 1) parts.push(`of at least ${setting.minLength} characters`);
  if (setting.maxLength !== undefined) parts.push(`of at most ${setting.maxLength} characters`);
  if (setting.pattern !== undefined) parts.push(`matching ${setting.pattern}`);
  return parts.join(' ');
}

/**
 * One problem per setting whose value fails its schema, saying what a valid one looks like; the value itself
 * is shown (shortened) unless the setting is a secret. Returns the problems, in the schema's order, and the settings
 * they name.
 */
export function schemaProblems(schema: TObject, value: Record<string, unknown>, secrets: ReadonlySet<string>): { problems: string[]; keys: Set<string> } {
  const keys = new Set<string>();
  for (const error of Value.Errors(schema, value)) {
    const key = error.instancePath.replace(/^\//, '').split('/')[0];
    if (key) keys.add(key);
  }
  const order = Object.keys(schema.properties);
  const problems = [...keys].sort((a, b) => order.indexOf(a) - order.indexOf(b)).map((key) => {
    const given = value[key];
    const shown = secrets.has(key) ? '' : ` (not ${JSON.stringify(String(given).length > 60 ? `${String(given).slice(0, 57)}...` : String(given))})`;
    return `${key}: ${validValue(schema.properties[key]!)}${shown}`;
  });
  return { problems, keys };
}

/**
 * Why a connection string cannot be used, or undefined: it must parse as a URL with one of `protocols` (a
 * typo such as `DATABASE_URL=base` would otherwise surface as `getaddrinfo ENOTFOUND base` at the first query).
 *
 * @example
 * ```ts
 * connectionUrlProblem('DATABASE_URL', 'not-a-url', ['postgres:', 'postgresql:'], 'postgres://gateway@db.example:5432/gateway');
 * // 'DATABASE_URL: a postgres:// or postgresql:// URL, e.g. postgres://gateway@db.example:5432/gateway'
 * ```
 */
export function connectionUrlProblem(name: string, url: string, protocols: string[], example: string): string | undefined {
  let parsed: URL | undefined;
  try {
    parsed = new URL(url);
  } catch {
    parsed = undefined;
  }
  if (parsed && protocols.includes(parsed.protocol)) return undefined;
  return `${name}: ${connectionUrlWords(protocols)}, e.g. ${example}`;
}

/** `a postgres:// or postgresql:// URL`. */
export function connectionUrlWords(protocols: string[]): string {
  return `a ${protocols.map((protocol) => `${protocol}//`).join(' or ')} URL`;
}
