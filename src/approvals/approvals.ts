import { randomUUID } from 'node:crypto';
import { PROPOSAL_PAGE_MAX, type ApprovalSettings, type ProposalQuery, type ProposalView, type RejectBody } from '@partner-gateway/contract/admin-approvals';
import { AppError, errors } from '../errors.js';
import { actorAllows, actorRef, operatorsBehind, type RequestContext } from '../request-context.js';
import type { ApprovalSettingsStore } from './approval-settings.js';
import type { ActionRegistry, CheckedAction } from './checked-action.js';
import type { Proposal, ProposalRepository } from './proposal-repository.js';

/** A change submitted: made at once, or held as a proposal for a second operator (the route answers 202). */
export type Submitted<Result> = { applied: Result } | { proposal: ProposalView };

/**
 * Maker-checker. Every checked route submits its change here: when its action needs approval (a setting, none by
 * default), or its preview says it must be held (a guarded action over its limits), the change becomes a pending
 * proposal, with a preview of what it will do and the base it was computed from; otherwise it is made at once.
 * Another operator, holding the action's permission and approvals.decide, approves it within APPROVAL_TTL: it is
 * then applied exactly as previewed, or refused (409) when its base has changed. Nobody approves their own
 * proposal: no operator behind the approving credential (its operator, and every operator its token was created
 * through) may be behind the proposal's (request-context's operatorsBehind). The approval's audit entry is the
 * change's own action, naming the proposer as its operator and the approver beside.
 */
export interface Approvals {
  submit<Result>(action: string, input: unknown, context: RequestContext): Promise<Submitted<Result>>;
  list(query: ProposalQuery): Promise<ProposalView[]>;
  get(id: string): Promise<ProposalView>;
  approve(id: string, context: RequestContext): Promise<ProposalView>;
  /** Rejects a proposal (its proposer may withdraw it so too). */
  reject(id: string, body: RejectBody, context: RequestContext): Promise<ProposalView>;
  /** Every checked action, whether it needs approval, and who may approve it. */
  settings(): Promise<ApprovalSettings>;
}

export interface ApprovalsDependencies {
  registry: ActionRegistry;
  proposals: ProposalRepository;
  settings: ApprovalSettingsStore;
  /** APPROVAL_TTL in milliseconds. */
  ttlMs: number;
  now: () => number;
}

export function createApprovals(deps: ApprovalsDependencies): Approvals {
  function definition(action: string): CheckedAction {
    const found = deps.registry.get(action);
    if (!found) throw new Error(`no checked action ${action}`);
    return found;
  }

  async function pending(id: string): Promise<Proposal> {
    await deps.proposals.expire(new Date(deps.now()));
    const proposal = await deps.proposals.find(id);
    if (!proposal) throw errors.proposalNotFound();
    if (proposal.status === 'expired') throw errors.proposalExpired();
    if (proposal.status !== 'pending') throw errors.proposalDecided(proposal.status);
    return proposal;
  }

  /** A proposal as the API shows it: a request that keeps a secret's hash shows what its action lets it show. */
  function view(proposal: Proposal): ProposalView {
    const shown = deps.registry.get(proposal.action)?.shownRequest;
    return toProposalView(shown ? { ...proposal, request: shown(proposal.request) } : proposal);
  }

  async function decided(id: string): Promise<never> {
    const now = await deps.proposals.find(id);
    throw errors.proposalDecided(now?.status ?? 'gone');
  }

  return {
    async submit(action, input, context) {
      const checked = definition(action);
      const required = (await deps.settings.requiredActions()).has(action);
      if (!required && !checked.guarded) return { applied: await checked.apply(input, context) };
      const preview = await checked.preview(input);
      if (!required && preview.holdReason === undefined) return { applied: await checked.apply(input, context) };
      const at = deps.now();
      const proposal = await deps.proposals.insert({
        id: randomUUID(),
        action,
        target: preview.target,
        request: input,
        preview: preview.preview,
        base: preview.base,
        proposedBy: actorRef(context.actor!),
        proposedAt: new Date(at),
        expiresAt: new Date(at + deps.ttlMs),
      });
      if (preview.partner !== undefined) context.audit.partner = preview.partner;
      const held = preview.holdReason === undefined ? {} : { heldBecause: preview.holdReason };
      context.audit.details = { proposal: { id: proposal.id, status: 'pending', expiresAt: proposal.expiresAt.toISOString() }, ...held, target: preview.target, preview: preview.preview };
      return { proposal: view(proposal) };
    },
    async list(query) {
      await deps.proposals.expire(new Date(deps.now()));
      const limit = query.limit === undefined ? 100 : Number(query.limit);
      if (!(limit >= 1 && limit <= PROPOSAL_PAGE_MAX)) throw errors.validationFailed([{ field: 'limit', message: `must be between 1 and ${PROPOSAL_PAGE_MAX}` }]);
      return (await deps.proposals.list({ ...(query.status ? { status: query.status } : {}), limit })).map(view);
    },
    async get(id) {
      await deps.proposals.expire(new Date(deps.now()));
      const proposal = await deps.proposals.find(id);
      if (!proposal) throw errors.proposalNotFound();
      return view(proposal);
    },
    async approve(id, context) {
      const actor = context.actor!;
      const proposal = await pending(id);
      context.audit.details = { proposal: { id }, action: proposal.action, target: proposal.target };
      if (actor.id === proposal.proposedBy.id) throw errors.ownProposal();
      const proposers = operatorsBehind(proposal.proposedBy);
      if (operatorsBehind(actorRef(actor)).some((id) => proposers.includes(id))) throw errors.credentialOfProposer();
      const checked = definition(proposal.action);
      for (const permission of checked.permissionsFor?.(proposal.request) ?? [checked.permission]) {
        if (!actorAllows(actor, permission)) throw errors.forbidden(permission);
      }
      const approver = actorRef(actor);
      const claimed = await deps.proposals.decide(id, 'approved', { decidedBy: approver, decidedAt: new Date(deps.now()), reason: null });
      if (!claimed) return decided(id);
      // From here the entry is the change's: its action, its proposer as the operator, this actor as the approver.
      context.audit.action = checked.action;
      context.audit.operator = proposal.proposedBy;
      context.audit.approver = approver;
      context.audit.details = { proposal: { id }, target: proposal.target };
      let result: unknown;
      try {
        const now = await checked.preview(proposal.request);
        if (now.base !== proposal.base) throw errors.proposalBaseChanged();
        result = await checked.apply(proposal.request, context);
      } catch (error) {
        if (!(error instanceof AppError)) {
          await deps.proposals.reopen(id);
          throw error;
        }
        // The target changed, went away, or no longer passes the change's checks: nothing was changed.
        await deps.proposals.settle(id, { status: 'conflict', result: null, reason: error.description });
        context.audit.details = { ...context.audit.details, refused: error.description };
        throw errors.proposalBaseChanged();
      }
      await deps.proposals.settle(id, { status: 'approved', result: result ?? null, reason: null });
      context.audit.details = { ...context.audit.details, proposal: { id } };
      return view({ ...claimed, result: result ?? null });
    },
    async reject(id, body, context) {
      const actor = context.actor!;
      const proposal = await pending(id);
      const withdrawn = actor.id === proposal.proposedBy.id;
      const checked = definition(proposal.action);
      if (!withdrawn && !actorAllows(actor, checked.permission)) throw errors.forbidden(checked.permission);
      const reason = body.reason ?? (withdrawn ? 'withdrawn by its proposer' : null);
      const rejected = await deps.proposals.decide(id, 'rejected', { decidedBy: actorRef(actor), decidedAt: new Date(deps.now()), reason });
      if (!rejected) return decided(id);
      context.audit.details = { proposal: { id }, action: proposal.action, target: proposal.target, reason, withdrawn };
      return view(rejected);
    },
    async settings() {
      const required = await deps.settings.requiredActions();
      return {
        actions: deps.registry.list().map((checked) => ({ action: checked.action, required: required.has(checked.action), description: checked.description, permission: checked.permission })),
      };
    },
  };
}

function toProposalView(proposal: Proposal): ProposalView {
  return {
    id: proposal.id,
    action: proposal.action,
    status: proposal.status,
    target: proposal.target,
    request: proposal.request,
    preview: proposal.preview,
    proposedBy: proposal.proposedBy,
    proposedAt: proposal.proposedAt.toISOString(),
    expiresAt: proposal.expiresAt.toISOString(),
    decidedBy: proposal.decidedBy,
    decidedAt: proposal.decidedAt?.toISOString() ?? null,
    reason: proposal.reason,
    result: proposal.result,
  };
}
