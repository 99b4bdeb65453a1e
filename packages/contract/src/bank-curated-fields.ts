import { Type, type TLiteral, type TNull, type TOptional, type TSchema, type TString, type TUnion } from 'typebox';
import { BANK_NAME_EN_PATTERN, BANK_NAME_MAX_LENGTH, SBP_MEMBER_ID_PATTERN } from './patterns.js';

/** How one optional curated text field of a bank is named, checked and shown. */
export interface CuratedTextFieldDeclaration {
  /** What operators read in a change (`member id: 1 -> 2`). */
  readonly label: string;
  /** The console's form label and column heading, and the field's name in a problem's sentence. */
  readonly title: string;
  /** The CLI's table heading for the field. */
  readonly heading: string;
  /** The CLI's option that sets it (`--<flag> <placeholder>`). */
  readonly flag: string;
  readonly placeholder: string;
  /** What a value must match (JSON Schema `pattern`; an empty value means none). */
  readonly pattern: string;
  readonly maxLength?: number;
  /** The value's rule in words, for the API documents and the console's hint. */
  readonly description?: string;
  /** What a value `pattern` refuses is told (the bank checks' problem message); without it only length and control characters are checked. */
  readonly problem?: string;
  /** A number-like value: a spreadsheet may have turned it into one, which the checks name. */
  readonly digits?: boolean;
}

/**
 * A bank's optional curated text fields besides its name (which every bank has), one declaration each: the
 * admin API's bank shapes, the change labels, the CSV export and import, the bank checks, the CLI and the console's
 * forms take the fields from here. A new curated field is a line here, a column in a migration and in `bankFields`
 * (src/banks/bank-repository.ts); the compiler or a test names anything else that must say something of it. What
 * partners receive (`fields=` of the public banks call) is a promise of its own and never grows by itself.
 *
 * @example
 * ```ts
 * CURATED_TEXT_FIELDS.sbpMemberId.label; // 'member id'
 * ```
 */
export const CURATED_TEXT_FIELDS = {
  nameEn: { label: 'Latin name', title: 'Latin name', heading: 'ENGLISH NAME', flag: 'name-en', placeholder: 'name', maxLength: BANK_NAME_MAX_LENGTH, pattern: BANK_NAME_EN_PATTERN },
  sbpMemberId: { label: 'member id', title: 'SBP member id', heading: 'SBP MEMBER ID', flag: 'sbp-member-id', placeholder: 'id', pattern: SBP_MEMBER_ID_PATTERN, description: '12 digits', problem: 'must be a string of 12 digits', digits: true },
} as const satisfies Record<string, CuratedTextFieldDeclaration>;

export type CuratedTextField = keyof typeof CURATED_TEXT_FIELDS;

/** The fields in their declared order (the order of every shape and column that lists them). */
export const CURATED_TEXT_FIELD_NAMES = Object.keys(CURATED_TEXT_FIELDS) as CuratedTextField[];

/** Every curated field: the name, then the optional text fields. */
export const CURATED_BANK_FIELDS = ['name', ...CURATED_TEXT_FIELD_NAMES] as const;
export type CuratedBankField = (typeof CURATED_BANK_FIELDS)[number];

export type EachCuratedText<T> = { [K in CuratedTextField]: T };

/** One value per optional curated field, in the declared order. */
export function eachCuratedText<T>(make: (name: CuratedTextField, declaration: CuratedTextFieldDeclaration) => T): EachCuratedText<T> {
  return Object.fromEntries(CURATED_TEXT_FIELD_NAMES.map((name) => [name, make(name, CURATED_TEXT_FIELDS[name])])) as EachCuratedText<T>;
}

/**
 * The optional curated fields `input` has, the others null: a bank's fields picked from a wider object, or what a
 * bank the list did not hold arrives with.
 *
 * @example
 * ```ts
 * curatedTextOf({ nameEn: 'Sberbank', registryName: 'ПАО СБЕРБАНК' }); // { nameEn: 'Sberbank', sbpMemberId: null }
 * ```
 */
export function curatedTextOf(input: { [K in CuratedTextField]?: string | null }): EachCuratedText<string | null> {
  return eachCuratedText((field) => input[field] ?? null);
}

/** The fields as a bank holds them (text, or null when unset): spread into a bank's schema. */
export function curatedTextValues(): EachCuratedText<TUnion<[TString, TNull]>> {
  return eachCuratedText(() => Type.Union([Type.String(), Type.Null()]));
}

/** The fields as a body sets them: each optional, text within its rule or null; `emptyMeans` ends the description of a field that has one. */
export function curatedTextInputs(emptyMeans: string): EachCuratedText<TOptional<TUnion<[TString, TNull]>>> {
  return eachCuratedText((_name, field) => {
    const rule = {
      ...(field.maxLength !== undefined ? { maxLength: field.maxLength } : {}),
      pattern: field.pattern,
      ...(field.description !== undefined ? { description: `${field.description} (${emptyMeans})` } : {}),
    };
    return Type.Optional(Type.Union([Type.String(rule), Type.Null()]));
  });
}

/** `schema`, optional, once per field (the source of each field). */
export function curatedTextOptional<T extends TSchema>(schema: T) {
  return eachCuratedText(() => Type.Optional(schema));
}

/**
 * `anyOf` one `const` per value, in order, typed as the union of the values: the shape TypeBox gives a union of
 * literals written out, for a list of names put together from declarations.
 */
export function literalUnion<T extends string>(values: readonly T[], options: { title: string }): TUnion<[TLiteral<T>]> {
  return Type.Union(values.map((value) => Type.Literal(value)), options) as unknown as TUnion<[TLiteral<T>]>;
}
