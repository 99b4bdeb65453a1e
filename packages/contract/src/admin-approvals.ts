import { Type, type Static } from 'typebox';
import { CredentialKind } from './admin-permissions.js';

/**
 * Maker-checker: the admin API's shapes for changes one operator proposes and another approves. Which actions
 * need approval is a setting (nothing by default); an action that needs it answers 202 with a proposal instead
 * of doing the change.
 */

/**
 * Who proposed or decided. A personal token issued through other operators' credentials names them in
 * `issuedThrough`: they answer for what it does alongside `id`, and none of them may approve what it proposes.
 */
export const ActorRef = Type.Object({
  id: Type.String(),
  name: Type.String(),
  credential: CredentialKind,
  issuedThrough: Type.Optional(Type.Array(Type.String(), {
    maxItems: 100,
    description: "For a personal token created with another operator's credential (at any depth of tokens creating tokens): the ids of every operator in that chain, the first at its root",
  })),
}, { title: 'ActorRef' });
export type ActorRef = Static<typeof ActorRef>;

export const ProposalStatus = Type.Union([
  Type.Literal('pending'),
  Type.Literal('approved'),
  Type.Literal('rejected'),
  Type.Literal('expired'),
  /** Approved too late: what it was based on had changed, and it was refused (409) rather than applied differently. */
  Type.Literal('conflict'),
], { title: 'ProposalStatus' });
export type ProposalStatus = Static<typeof ProposalStatus>;

const JsonValue = Type.Unsafe<unknown>({ description: 'JSON' });

/** A proposed change (a pending proposal, or a decided one). */
export const ProposalView = Type.Object({
  id: Type.String(),
  action: Type.String({ description: 'The audited action it performs once approved (key.revoke, partner.delete, ...)' }),
  status: ProposalStatus,
  /** What it changes, in words: `partner acme`, `signing key 0b9Qm...`. */
  target: Type.String(),
  /** The request as made (never a secret: actions whose requests carry one cannot need approval). */
  request: JsonValue,
  /** What approving it will do, computed when proposed; it is applied exactly so, or refused if its base changed. */
  preview: JsonValue,
  proposedBy: ActorRef,
  proposedAt: Type.String({ format: 'date-time' }),
  /** After this (APPROVAL_TTL after proposing) it can no longer be approved. */
  expiresAt: Type.String({ format: 'date-time' }),
  decidedBy: Type.Union([ActorRef, Type.Null()]),
  decidedAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
  /** The rejection's reason, or why an approval was refused. */
  reason: Type.Union([Type.String(), Type.Null()]),
  /** What the applied change answered. */
  result: JsonValue,
}, { title: 'ProposalView' });
export type ProposalView = Static<typeof ProposalView>;

export const ProposalList = Type.Object({ proposals: Type.Array(ProposalView) }, { title: 'ProposalList' });
export type ProposalList = Static<typeof ProposalList>;

/** The most proposals one page lists (`limit`, the schema's pattern and the service's check). */
export const PROPOSAL_PAGE_MAX = 500;
/** `limit` as the query string carries it: a decimal from 1 to PROPOSAL_PAGE_MAX (500), no leading zero. */
export const PROPOSAL_LIMIT_PATTERN = '^([1-9][0-9]?|[1-4][0-9]{2}|500)$';

/** GET /admin/v1/approvals query. */
export const ProposalQuery = Type.Object(
  {
    status: Type.Optional(ProposalStatus),
    limit: Type.Optional(Type.String({ pattern: PROPOSAL_LIMIT_PATTERN, description: `1 to ${PROPOSAL_PAGE_MAX}, default 100` })),
  },
  { title: 'ProposalQuery', additionalProperties: false },
);
export type ProposalQuery = Static<typeof ProposalQuery>;

export const ProposalParams = Type.Object({ id: Type.String({ pattern: '^[0-9a-f-]{36}$' }) }, { title: 'ProposalParams' });
export type ProposalParams = Static<typeof ProposalParams>;

/** POST /admin/v1/approvals/{id}/reject body. */
export const RejectBody = Type.Object({ reason: Type.Optional(Type.String({ maxLength: 500 })) }, { title: 'RejectBody', additionalProperties: false });
export type RejectBody = Static<typeof RejectBody>;

/** One action's setting, with what it does and who may approve it. */
export const ApprovalSetting = Type.Object({
  action: Type.String(),
  required: Type.Boolean({ description: 'Whether the action needs a second operator' }),
  description: Type.String(),
  /** The permission an approver needs (besides approvals.decide), and so the roles that may approve. */
  permission: Type.String(),
}, { title: 'ApprovalSetting' });
export type ApprovalSetting = Static<typeof ApprovalSetting>;

export const ApprovalSettings = Type.Object({ actions: Type.Array(ApprovalSetting) }, { title: 'ApprovalSettings' });
export type ApprovalSettings = Static<typeof ApprovalSettings>;

/**
 * The actions maker-checker can hold for a second operator: each is registered once, under its name, in the
 * server's registry (src/operations/checked-actions/, src/approvals/configure-approvals-action.ts), whose
 * CheckedAction type takes its name from this list.
 */
export const CHECKED_ACTIONS = [
  'partner.create',
  'partner.update',
  'partner.delete',
  'partner.jwks.set',
  'partner.certificates.set',
  'banks.replace',
  'banks.restore',
  'banks.import',
  'bank.add',
  'bank.edit',
  'bank.remove',
  'banks.admit',
  'banks.exclude',
  'banks.unexclude',
  'banks.exclusion.add',
  'banks.exclusion.remove',
  'banks.participants.import',
  'banks.participants.confirm',
  'banks.participants.reject',
  'key.revoke',
  'operator.create',
  'operator.update',
  'approvals.configure',
] as const;
export type CheckedActionName = (typeof CHECKED_ACTIONS)[number];

/**
 * PUT /admin/v1/approvals/settings body: every action that needs approval (the others then do not).
 *
 * @example
 * ```json
 * { "required": ["key.revoke", "partner.delete", "approvals.configure"] }
 * ```
 */
export const SetApprovalSettingsBody = Type.Object(
  { required: Type.Array(Type.Enum(CHECKED_ACTIONS), { maxItems: CHECKED_ACTIONS.length, uniqueItems: true }) },
  { title: 'SetApprovalSettingsBody', additionalProperties: false },
);
export type SetApprovalSettingsBody = Static<typeof SetApprovalSettingsBody>;
