import { Type, type Static } from 'typebox';
import { ActorRef } from './admin-approvals.js';
import { BankChangeQuery, BankListOutcome } from './admin-bank-versions.js';
import { BIC_PATTERN } from './patterns.js';

/**
 * Member ids from the settlement bank's B2C participant list (issue 34): an import or a sync of the list matches
 * its entries to the banks by BIC (applied at once), then by normalized name (proposals an operator confirms or
 * rejects); entries and banks left unmatched on either side are listed.
 */

const Nullable = <T extends Parameters<typeof Type.Union>[0][number]>(schema: T) => Type.Union([schema, Type.Null()]);

/** The most BICs one confirm or reject names. */
export const PARTICIPANT_DECISION_MAX = 1000;

/** One participant as the settlement bank lists it: its SBP member id (12 digits), its name, a Latin name and a BIC where given. */
export const ParticipantEntry = Type.Object({
  memberId: Type.String(),
  name: Type.String(),
  nameEn: Nullable(Type.String()),
  bic: Nullable(Type.String()),
}, { title: 'ParticipantEntry' });
export type ParticipantEntry = Static<typeof ParticipantEntry>;

/**
 * A bank matched to a participant by name only: applied when an operator confirms it (its member id, its Latin
 * name when it has none), never by itself; a rejected proposal is not made again for the same member id.
 */
export const ParticipantProposal = Type.Object({
  bic: Type.String(),
  bankName: Type.String(),
  memberId: Type.String(),
  participantName: Type.String(),
  participantNameEn: Nullable(Type.String()),
  status: Type.Union([Type.Literal('pending'), Type.Literal('rejected')]),
  proposedAt: Type.String({ format: 'date-time' }),
  decidedBy: Nullable(ActorRef),
  decidedAt: Nullable(Type.String({ format: 'date-time' })),
}, { title: 'ParticipantProposal' });
export type ParticipantProposal = Static<typeof ParticipantProposal>;

/** A bank of the list no participant matched (by BIC, member id or name). */
export const UnmatchedBank = Type.Object({ bic: Type.String(), name: Type.String() }, { title: 'UnmatchedBank' });
export type UnmatchedBank = Static<typeof UnmatchedBank>;

/** A value the list offered that was not taken because an operator set the field. */
export const KeptOperatorValue = Type.Object({
  bic: Type.String(),
  field: Type.Union([Type.Literal('sbpMemberId'), Type.Literal('nameEn')]),
  kept: Nullable(Type.String()),
  offered: Type.String(),
}, { title: 'KeptOperatorValue' });
export type KeptOperatorValue = Static<typeof KeptOperatorValue>;

/** How a reading matched: counts, the proposals it made, and what stayed unmatched on either side. */
export const ParticipantsMatching = Type.Object({
  received: Type.Integer(),
  matchedByBic: Type.Integer(),
  /** Entries without a (listed) BIC that matched a bank by the member id it already has. */
  matchedByMemberId: Type.Integer(),
  proposals: Type.Array(ParticipantProposal),
  unmatchedParticipants: Type.Array(ParticipantEntry),
  unmatchedBanks: Type.Array(UnmatchedBank),
  keptOperatorValues: Type.Array(KeptOperatorValue),
}, { title: 'ParticipantsMatching' });
export type ParticipantsMatching = Static<typeof ParticipantsMatching>;

/** What an import of the participant list did or, previewed (`dryRun=true`), would do. */
export const ParticipantsReport = Type.Object({
  ...BankListOutcome.properties,
  ...ParticipantsMatching.properties,
}, { title: 'ParticipantsReport' });
export type ParticipantsReport = Static<typeof ParticipantsReport>;

/** POST /admin/v1/banks/participants/import query; the body is the list, JSON or CSV by Content-Type. */
export const ParticipantsImportQuery = Type.Object({
  dryRun: Type.Optional(Type.Union([Type.Literal('true'), Type.Literal('false')], { description: 'true: report what the import would do, change nothing' })),
  fileName: Type.Optional(Type.String({ maxLength: 255, description: "The file's name, recorded with the version" })),
  ...BankChangeQuery.properties,
}, { title: 'ParticipantsImportQuery' });
export type ParticipantsImportQuery = Static<typeof ParticipantsImportQuery>;

/** POST /admin/v1/banks/participants/proposals/confirm and …/reject body: the proposals' BICs. */
export const ProposalDecisionBody = Type.Object({
  bics: Type.Array(Type.String({ pattern: BIC_PATTERN }), { minItems: 1, maxItems: PARTICIPANT_DECISION_MAX, uniqueItems: true }),
}, { title: 'ProposalDecisionBody', additionalProperties: false });
export type ProposalDecisionBody = Static<typeof ProposalDecisionBody>;

/** What rejecting proposals did: the BICs whose pending proposal was rejected, and those that had none. */
export const ProposalRejection = Type.Object({ changed: Type.Array(Type.String()), unchanged: Type.Array(Type.String()) }, { title: 'ProposalRejection' });
export type ProposalRejection = Static<typeof ProposalRejection>;

/** What a participants sync run did: `applied` (a new version), `unchanged`, `held` (the removal guard: nothing applied) or `failed`. */
export const ParticipantsRunOutcome = Type.Union([Type.Literal('applied'), Type.Literal('unchanged'), Type.Literal('held'), Type.Literal('failed')], { title: 'ParticipantsRunOutcome' });
export type ParticipantsRunOutcome = Static<typeof ParticipantsRunOutcome>;

/** One reading of the list: an import or a sync run, with its matching (null when it failed). */
export const ParticipantsRun = Type.Object({
  id: Type.Integer(),
  startedAt: Type.String({ format: 'date-time' }),
  finishedAt: Type.String({ format: 'date-time' }),
  trigger: Type.Union([Type.Literal('import'), Type.Literal('schedule'), Type.Literal('manual')]),
  author: ActorRef,
  source: Nullable(Type.String()),
  outcome: ParticipantsRunOutcome,
  /** Why it failed or was held, in words. */
  error: Nullable(Type.String()),
  version: Nullable(Type.Integer()),
  matching: Nullable(ParticipantsMatching),
}, { title: 'ParticipantsRun' });
export type ParticipantsRun = Static<typeof ParticipantsRun>;

/** GET /admin/v1/banks/participants: the sync's settings, the latest readings (newest first) and every open or rejected proposal. */
export const ParticipantsStatus = Type.Object({
  /** BANKS_PARTICIPANTS_URL is set. */
  configured: Type.Boolean(),
  source: Nullable(Type.String()),
  intervalSeconds: Type.Integer(),
  /** BANKS_PARTICIPANTS_REQUIRED: banks the B2C list does not list are kept out of the partners' list. */
  required: Type.Boolean(),
  runs: Type.Array(ParticipantsRun),
  proposals: Type.Array(ParticipantProposal),
}, { title: 'ParticipantsStatus' });
export type ParticipantsStatus = Static<typeof ParticipantsStatus>;
