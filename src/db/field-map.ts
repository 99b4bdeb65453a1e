/**
 * One table's fields, mapped once: each domain field names its column and says how its value is written and read.
 * A repository declares its map, and the map drives its insert, its update and its read, and types them: the
 * domain object (`Entity`), what an insert needs (`NewEntity`) and what an update may change (`EntityChanges`).
 * A field added to the map is stored, changed and read everywhere at once; one left out of the map does not exist.
 *
 * @example
 * ```ts
 * const fields = { id: column<string>('id'), tags: json<string[]>('tags'), createdAt: column<Date>('created_at').defaulted(() => new Date()).immutable() };
 * type Thing = Entity<typeof fields>; // { id: string; tags: string[]; createdAt: Date }
 * await db.insertInto('things').values(toColumns(fields, { id: 'a', tags: ['x'] })).execute();
 * ```
 */
export interface Field<T, Defaulted extends boolean = false, Immutable extends boolean = false> {
  /** The column's name in the table. */
  readonly column: string;
  /** True when the database fills the column if an insert leaves it out (a default): optional in `NewEntity`. */
  readonly isDefaulted: Defaulted;
  /** True when an update through the map never changes it (an id, a creation time): absent from `EntityChanges`. */
  readonly isImmutable: Immutable;
  /** The value as the column takes it (a JSON column takes text). */
  write(value: T): unknown;
  /** The value as the domain sees it, from what the driver returns. */
  read(value: unknown): T;
  /** What the database fills the column with when an insert leaves it out (the migration's default); undefined when it does not. */
  defaultValue(): T | undefined;
  /** The same field, filled by the database with `value` (the column's default, as the domain sees it) when an insert leaves it out. */
  defaulted(value: T | (() => T)): Field<T, true, Immutable>;
  /** The same field, never changed by an update through the map. */
  immutable(): Field<T, Defaulted, true>;
}

/** A field of any value type: a map holds many. */
type AnyField = Field<any, boolean, boolean>;
type FieldMap = Record<string, AnyField>;
type ValueOf<F> = F extends Field<infer T, boolean, boolean> ? T : never;

/** The domain object a map describes. */
export type Entity<M extends FieldMap> = { [K in keyof M]: ValueOf<M[K]> };

type DefaultedKeys<M extends FieldMap> = { [K in keyof M]: M[K]['isDefaulted'] extends true ? K : never }[keyof M];
type MutableKeys<M extends FieldMap> = { [K in keyof M]: M[K]['isImmutable'] extends true ? never : K }[keyof M];

/** What an insert needs: every field the database does not fill by itself (the others are optional). */
export type NewEntity<M extends FieldMap> = Omit<Entity<M>, DefaultedKeys<M>> & Partial<Pick<Entity<M>, DefaultedKeys<M>>>;

/** What an update may change: any field that is not immutable. */
export type EntityChanges<M extends FieldMap> = Partial<Pick<Entity<M>, MutableKeys<M>>>;

function field<T, D extends boolean, I extends boolean>(
  column: string,
  write: (value: T) => unknown,
  read: (value: unknown) => T,
  isDefaulted: D,
  isImmutable: I,
  fallback?: T | (() => T),
): Field<T, D, I> {
  return {
    column,
    isDefaulted,
    isImmutable,
    write,
    read,
    defaultValue: () => (typeof fallback === 'function' ? (fallback as () => T)() : fallback),
    defaulted: (value) => field(column, write, read, true, isImmutable, value),
    immutable: () => field(column, write, read, isDefaulted, true, fallback),
  };
}

/** A column whose value the driver takes and returns as it is (text, numbers, booleans, timestamps as Date). */
export function column<T>(name: string): Field<T> {
  return field<T, false, false>(name, (value) => value, (value) => value as T, false, false);
}

/** A jsonb column: written as JSON text (null stays SQL null), read back parsed by the driver (pg and PGlite both do). */
export function json<T>(name: string): Field<T> {
  return field<T, false, false>(name, (value) => (value === null ? null : JSON.stringify(value)), (value) => value as T, false, false);
}

/** A bigint column read as a number (pg answers a bigint as text): for counters that stay far below 2^53. */
export function bigintNumber(name: string): Field<number> {
  return field<number, false, false>(name, (value) => value, (value) => Number(value), false, false);
}

/** The row to insert or the columns to set for `values`, field by field through the map; fields absent from `values` are left out. */
export function toColumns<M extends FieldMap>(map: M, values: Partial<Entity<M>>, options: { update?: boolean } = {}): Record<string, unknown> {
  const row: Record<string, unknown> = {};
  for (const [key, spec] of Object.entries(map)) {
    const value = (values as Record<string, unknown>)[key];
    if (value === undefined || (options.update && spec.isImmutable)) continue;
    row[spec.column] = spec.write(value);
  }
  return row;
}

/** The values the database gives the fields an insert leaves out (the columns' defaults, as the map declares them). */
export function defaultsOf<M extends FieldMap>(map: M): Partial<Entity<M>> {
  const defaults: Record<string, unknown> = {};
  for (const [key, spec] of Object.entries(map)) if (spec.isDefaulted) defaults[key] = spec.defaultValue();
  return defaults as Partial<Entity<M>>;
}

/** The domain object a row holds, field by field through the map. */
export function fromColumns<M extends FieldMap>(map: M, row: Record<string, unknown>): Entity<M> {
  const entity: Record<string, unknown> = {};
  for (const [key, spec] of Object.entries(map)) entity[key] = spec.read(row[spec.column]);
  return entity as Entity<M>;
}
