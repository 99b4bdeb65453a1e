import { Type, type Static } from 'typebox';
import { ActorRef } from './admin-approvals.js';
import { BANK_NAME_MAX_LENGTH, BANK_NAME_PATTERN, BIC_PATTERN } from './patterns.js';

/**
 * Admission (issue 34): new SBP head offices a registry merge or sync finds wait in a review queue until an
 * operator admits them into the list partners receive, or excludes them; exclusions (BICs and name patterns)
 * keep banks out across every later sync and import.
 */

const Nullable = <T extends Parameters<typeof Type.Union>[0][number]>(schema: T) => Type.Union([schema, Type.Null()]);

/** The most BICs one admit, exclude or unexclude names. */
export const ADMISSION_BATCH_MAX = 1000;
/** The longest exclusion reason, and the longest name pattern. */
export const EXCLUSION_REASON_MAX_LENGTH = 500;
export const EXCLUSION_PATTERN_MAX_LENGTH = 100;

/**
 * `bic`: one BIC; `name`: 1 to 8 whole words found, in that order and in any case, in a registry name (`НКО`
 * excludes `ООО НКО "ЮМани"`, not `СИНКО-БАНК`). Plain words, never a regular expression.
 */
export const BankExclusionKind = Type.Union([Type.Literal('bic'), Type.Literal('name')], { title: 'BankExclusionKind' });
export type BankExclusionKind = Static<typeof BankExclusionKind>;

/** One exclusion: what it matches, why, and who set it when (the gateway for the default rules). */
export const BankExclusion = Type.Object({
  id: Type.Integer(),
  kind: BankExclusionKind,
  value: Type.String(),
  reason: Type.String(),
  createdBy: ActorRef,
  createdAt: Type.String({ format: 'date-time' }),
}, { title: 'BankExclusion' });
export type BankExclusion = Static<typeof BankExclusion>;

/** GET /admin/v1/banks/exclusions: every exclusion, oldest first. */
export const BankExclusionList = Type.Object({ exclusions: Type.Array(BankExclusion) }, { title: 'BankExclusionList' });
export type BankExclusionList = Static<typeof BankExclusionList>;

/**
 * A registry bank waiting for an operator: its registry facts, the display name it would be admitted with unless
 * the operator edits it (the registry name without legal form and quotes), and its state: `pending`, or
 * `excluded` with the exclusion that keeps it out.
 */
export const QueuedBank = Type.Object({
  bic: Type.String(),
  registryName: Type.String(),
  suggestedName: Type.String(),
  nameEn: Nullable(Type.String()),
  sbpMemberId: Nullable(Type.String()),
  firstSeenAt: Type.String({ format: 'date-time' }),
  state: Type.Union([Type.Literal('pending'), Type.Literal('excluded')]),
  excludedBy: Nullable(BankExclusion),
}, { title: 'QueuedBank' });
export type QueuedBank = Static<typeof QueuedBank>;

/** GET /admin/v1/banks/admissions: the queue in the order the registry first listed its banks, and its counts. */
export const BankAdmissionQueue = Type.Object({
  /** BANKS_AUTO_ADMIT: true when new registry banks are published at once (exclusions still apply). */
  autoAdmit: Type.Boolean(),
  pending: Type.Integer(),
  excluded: Type.Integer(),
  banks: Type.Array(QueuedBank),
}, { title: 'BankAdmissionQueue' });
export type BankAdmissionQueue = Static<typeof BankAdmissionQueue>;

/**
 * POST /admin/v1/banks/admissions/admit body: the banks to publish, appended at the end in this order as one
 * version, each with `name` (the display name partners see) or, left out, its suggested name.
 *
 * @example
 * ```json
 * { "banks": [{ "bic": "044525466" }, { "bic": "041708706", "name": "Владбизнесбанк" }] }
 * ```
 */
export const AdmitBanksBody = Type.Object({
  banks: Type.Array(
    Type.Object({
      bic: Type.String({ pattern: BIC_PATTERN }),
      name: Type.Optional(Type.String({ maxLength: BANK_NAME_MAX_LENGTH, pattern: BANK_NAME_PATTERN, description: 'The display name; the suggested name when left out' })),
    }, { additionalProperties: false }),
    { minItems: 1, maxItems: ADMISSION_BATCH_MAX, description: 'Each BIC at most once' },
  ),
}, { title: 'AdmitBanksBody', additionalProperties: false });
export type AdmitBanksBody = Static<typeof AdmitBanksBody>;

const Bics = Type.Array(Type.String({ pattern: BIC_PATTERN }), { minItems: 1, maxItems: ADMISSION_BATCH_MAX, uniqueItems: true });
const Reason = Type.String({ minLength: 1, maxLength: EXCLUSION_REASON_MAX_LENGTH, pattern: '\\S', description: 'Why: shown in the queue and the audit trail' });

/** POST /admin/v1/banks/admissions/exclude body: BICs kept out of the list for good (a published bank must be removed first). */
export const ExcludeBanksBody = Type.Object({ bics: Bics, reason: Reason }, { title: 'ExcludeBanksBody', additionalProperties: false });
export type ExcludeBanksBody = Static<typeof ExcludeBanksBody>;

/** POST /admin/v1/banks/admissions/unexclude body: BICs whose exclusion is lifted (back to the queue while the registry lists them). */
export const UnexcludeBanksBody = Type.Object({ bics: Bics }, { title: 'UnexcludeBanksBody', additionalProperties: false });
export type UnexcludeBanksBody = Static<typeof UnexcludeBanksBody>;

/** What an exclude or unexclude did: the BICs it changed, and those already as asked. */
export const BankExclusionOutcome = Type.Object({ changed: Type.Array(Type.String()), unchanged: Type.Array(Type.String()) }, { title: 'BankExclusionOutcome' });
export type BankExclusionOutcome = Static<typeof BankExclusionOutcome>;

/** POST /admin/v1/banks/exclusions body: a name pattern rule. */
export const AddExclusionRuleBody = Type.Object({
  value: Type.String({ minLength: 1, maxLength: EXCLUSION_PATTERN_MAX_LENGTH, pattern: '\\S', description: '1 to 8 whole words of a registry name, in order, any case' }),
  reason: Reason,
}, { title: 'AddExclusionRuleBody', additionalProperties: false });
export type AddExclusionRuleBody = Static<typeof AddExclusionRuleBody>;

export const ExclusionParams = Type.Object({ id: Type.String({ pattern: '^[0-9]{1,9}$' }) }, { title: 'ExclusionParams' });
export type ExclusionParams = Static<typeof ExclusionParams>;
