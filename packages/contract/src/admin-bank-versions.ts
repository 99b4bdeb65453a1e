import { Type, type Static } from 'typebox';
import { ActorRef } from './admin-approvals.js';
import { CURATED_TEXT_FIELD_NAMES, CURATED_TEXT_FIELDS, curatedTextOptional, curatedTextValues, eachCuratedText, literalUnion } from './bank-curated-fields.js';

/**
 * The bank list's versions and changes (issue 24): what a bank holds (registry facts and curated fields), what a
 * change of the list does field by field, and the numbered versions every change creates.
 */

const Nullable = <T extends Parameters<typeof Type.Union>[0][number]>(schema: T) => Type.Union([schema, Type.Null()]);

/**
 * Where a bank's curated or derived field came from (issue 34): `registry` (the Bank of Russia directory, an
 * import of it or the sync), `participants` (the settlement bank's B2C participant list, an import of it, its sync,
 * or a name match an operator confirmed) or `operator` (an edit, an added bank, a JSON or CSV file). A value an
 * operator set is never changed by a participants import or sync.
 */
export const BankFieldOrigin = Type.Union([Type.Literal('registry'), Type.Literal('participants'), Type.Literal('operator')], { title: 'BankFieldOrigin' });
export type BankFieldOrigin = Static<typeof BankFieldOrigin>;

/** A field's source: where its value came from, who made the change that set it (the sync: credential `system`) and when. */
export const BankFieldSource = Type.Object({
  source: BankFieldOrigin,
  by: ActorRef,
  at: Type.String({ format: 'date-time' }),
}, { title: 'BankFieldSource' });
export type BankFieldSource = Static<typeof BankFieldSource>;

/**
 * The source of each curated or derived field of a bank; a field without one was set before sources were
 * recorded (migration 0034) or came with the list the gateway ships.
 */
export const BankFieldSources = Type.Object({
  name: Type.Optional(BankFieldSource),
  ...curatedTextOptional(BankFieldSource),
  sbpParticipant: Type.Optional(BankFieldSource),
  participantsListed: Type.Optional(BankFieldSource),
}, { title: 'BankFieldSources' });
export type BankFieldSources = Static<typeof BankFieldSources>;

/** The fields whose source is recorded. */
export const SOURCED_BANK_FIELDS = ['name', ...CURATED_TEXT_FIELD_NAMES, 'sbpParticipant', 'participantsListed'] as const satisfies ReadonlyArray<keyof BankFieldSources>;
export type SourcedBankField = (typeof SOURCED_BANK_FIELDS)[number];

/**
 * One bank of the list as a version stores it. Registry facts come from the Bank of Russia directory (ED807):
 * `registryName` and `sbpParticipant` (null until a registry was imported). Curated fields only an operator or an
 * explicit file sets: `name` (the display name partners see), `nameEn` (the Latin name), `sbpMemberId` (the NSPK
 * member id) and the bank's place in the list.
 */
export const BankListEntry = Type.Object({
  bic: Type.String(),
  name: Type.String(),
  ...curatedTextValues(),
  registryName: Nullable(Type.String()),
  sbpParticipant: Nullable(Type.Boolean()),
  /** Whether the settlement bank's B2C participant list lists the bank (by BIC or member id); null before a list was read. */
  participantsListed: Type.Optional(Nullable(Type.Boolean())),
  /** Each field's source (absent in versions made before sources were recorded). */
  sources: Type.Optional(BankFieldSources),
}, { title: 'BankListEntry' });
export type BankListEntry = Static<typeof BankListEntry>;

/** The fields a change can touch: `position` is the bank's 1-based place in the list. */
export const BankField = literalUnion(['name', ...CURATED_TEXT_FIELD_NAMES, 'registryName', 'sbpParticipant', 'participantsListed', 'position'], { title: 'BankField' });
export type BankField = Static<typeof BankField>;

/** Each field's name as operators read it in a change (the CLI's lines and the console's tables). */
export const BANK_FIELD_LABELS: Readonly<Record<BankField, string>> = {
  name: 'name',
  ...eachCuratedText((field) => CURATED_TEXT_FIELDS[field].label),
  registryName: 'registry name',
  sbpParticipant: 'SBP',
  participantsListed: 'B2C list',
  position: 'position',
};

const FieldValue = Type.Union([Type.String(), Type.Integer(), Type.Boolean(), Type.Null()]);

/** One field of one bank, old -> new (null: unset, or the bank absent on that side). */
export const BankFieldChange = Type.Object({
  field: BankField,
  old: FieldValue,
  new: FieldValue,
  /** Where the new value came from (a field whose source is recorded: see BankFieldSources). */
  source: Type.Optional(BankFieldSource),
}, { title: 'BankFieldChange' });
export type BankFieldChange = Static<typeof BankFieldChange>;

/**
 * What a change does to one bank: `added` (every field it arrives with, position old null), `removed` (every field
 * it had, new null), or `changed` (only the fields that differ; `position` only for a bank moved relative to the
 * others, never for one that merely shifts because another was added, removed or moved).
 */
export const BankListChange = Type.Object({
  bic: Type.String(),
  /** The display name: after the change, or before it for a removed bank. */
  name: Type.String(),
  kind: Type.Union([Type.Literal('added'), Type.Literal('removed'), Type.Literal('changed')]),
  fields: Type.Array(BankFieldChange),
}, { title: 'BankListChange' });
export type BankListChange = Static<typeof BankListChange>;

/** What made a version. */
export const BankVersionSource = Type.Union([
  Type.Literal('seed'),
  Type.Literal('add'),
  Type.Literal('remove'),
  Type.Literal('edit'),
  Type.Literal('reorder'),
  Type.Literal('import'),
  Type.Literal('replace'),
  Type.Literal('sync'),
  Type.Literal('restore'),
  /** Banks of the review queue an operator admitted. */
  Type.Literal('admit'),
  /** The settlement bank's B2C participant list (an import, its sync, or a name match an operator confirmed). */
  Type.Literal('participants'),
], { title: 'BankVersionSource' });
export type BankVersionSource = Static<typeof BankVersionSource>;

/** A version as the history lists it. */
export const BankVersionSummary = Type.Object({
  number: Type.Integer(),
  createdAt: Type.String({ format: 'date-time' }),
  /** Who made it (for a version applied on approval, who proposed it): an operator (as the audit trail names it), or the gateway itself (the first list, a scheduled sync: credential `system`). */
  author: ActorRef,
  /**
   * For a version applied by approving a proposal: who approved it (`author` is then who proposed it, as the audit
   * trail names its operator and approver); null for a change made at once.
   */
  approver: Nullable(ActorRef),
  source: BankVersionSource,
  /** The imported file's name (import), when given. */
  fileName: Nullable(Type.String()),
  comment: Nullable(Type.String()),
  /** The version a restore brought back. */
  restoredFrom: Nullable(Type.Integer()),
  /** The number of banks partners get in this version. */
  banks: Type.Integer(),
  added: Type.Integer(),
  removed: Type.Integer(),
  changed: Type.Integer(),
  /** The strong ETag of the partners' body in this version. */
  etag: Type.String(),
}, { title: 'BankVersionSummary' });
export type BankVersionSummary = Static<typeof BankVersionSummary>;

/** GET /admin/v1/banks/versions: newest first; `nextCursor` asks for the next (older) page. */
export const BankVersionPage = Type.Object({ versions: Type.Array(BankVersionSummary), nextCursor: Nullable(Type.String()) }, { title: 'BankVersionPage' });
export type BankVersionPage = Static<typeof BankVersionPage>;

/** The most versions one page lists. */
export const BANK_VERSION_PAGE_MAX = 200;
/** `limit` as the query string carries it: a decimal from 1 to BANK_VERSION_PAGE_MAX (200), no leading zero. */
export const BANK_VERSION_LIMIT_PATTERN = '^([1-9][0-9]?|1[0-9]{2}|200)$';

export const BankVersionQuery = Type.Object(
  {
    cursor: Type.Optional(Type.String({ pattern: '^[0-9]{1,9}$', description: 'nextCursor of the previous page' })),
    limit: Type.Optional(Type.String({ pattern: BANK_VERSION_LIMIT_PATTERN, description: `1 to ${BANK_VERSION_PAGE_MAX}, default 50` })),
  },
  { title: 'BankVersionQuery', additionalProperties: false },
);
export type BankVersionQuery = Static<typeof BankVersionQuery>;

/** GET /admin/v1/banks/versions/{n}: the version's list, in order, and its changes from the version before it. */
export const BankVersionView = Type.Object({
  ...BankVersionSummary.properties,
  list: Type.Array(BankListEntry),
  changes: Type.Array(BankListChange),
}, { title: 'BankVersionView' });
export type BankVersionView = Static<typeof BankVersionView>;

export const VersionParams = Type.Object({ n: Type.String({ pattern: '^[0-9]{1,9}$' }) }, { title: 'VersionParams' });
export type VersionParams = Static<typeof VersionParams>;

/**
 * What a change of the list did (`applied`: a new version) or, previewed, would do (`applied: false`), by bank and
 * field. `baseVersion` is the version it was computed on: pass it back to apply exactly this (409 if the list has
 * changed since). `version` is the list's version after it (the base when nothing changed).
 */
export const BankListOutcome = Type.Object({
  applied: Type.Boolean(),
  baseVersion: Type.Integer(),
  version: Type.Integer(),
  added: Type.Array(Type.String()),
  changed: Type.Array(Type.String()),
  removed: Type.Array(Type.String()),
  changes: Type.Array(BankListChange),
}, { title: 'BankListOutcome' });
export type BankListOutcome = Static<typeof BankListOutcome>;

/** Optional on every change: the version the change was previewed on, and a comment for the history. */
export const BankChangeQuery = Type.Object({
  baseVersion: Type.Optional(Type.String({ pattern: '^[0-9]{1,9}$', description: 'Apply only if the list is still at this version (409 otherwise)' })),
  comment: Type.Optional(Type.String({ maxLength: 500, description: 'Recorded with the version' })),
}, { title: 'BankChangeQuery' });
export type BankChangeQuery = Static<typeof BankChangeQuery>;

/** POST /admin/v1/banks/versions/{n}/restore query. */
export const RestoreQuery = Type.Object({
  ...BankChangeQuery.properties,
  dryRun: Type.Optional(Type.Union([Type.Literal('true'), Type.Literal('false')], { description: 'true: what restoring would change, nothing changed' })),
}, { title: 'RestoreQuery' });
export type RestoreQuery = Static<typeof RestoreQuery>;
