import type { Kysely } from 'kysely';
import type { Config } from '../config.js';
import type { ChangeFeed } from '../db/change-feed.js';
import type { Database } from '../db/schema.js';
import { createApprovalSettingsStore } from './approval-settings.js';
import { createApprovals, type Approvals } from './approvals.js';
import { createActionRegistry, type ActionRegistry } from './checked-action.js';
import { configureApprovalsAction } from './configure-approvals-action.js';
import { createProposalRepository } from './proposal-repository.js';

/** Maker-checker, wired: the registry the gateway fills with its checked actions, and the approvals over it. */
export interface ApprovalsModule {
  /** Where each module's checked actions are registered (approvals.configure is already). */
  registry: ActionRegistry;
  approvals: Approvals;
}

/**
 * @example
 * ```ts
 * const { registry, approvals } = createApprovalsModule(handle.db, feed, config, Date.now);
 * registry.register(revokeKeyAction(keys));
 * const outcome = await approvals.submit('key.revoke', { kid }, context); // { applied } or { proposal }
 * ```
 */
export function createApprovalsModule(db: Kysely<Database>, feed: ChangeFeed, config: Config, now: () => number): ApprovalsModule {
  const registry = createActionRegistry();
  const settings = createApprovalSettingsStore(db, { cacheTtlMs: config.CACHE_TTL_MS, now });
  feed.subscribe('approval-settings', () => settings.invalidate());
  registry.register(configureApprovalsAction(registry, settings, () => feed.publish({ kind: 'approval-settings' })));
  return {
    registry,
    approvals: createApprovals({ registry, proposals: createProposalRepository(db), settings, ttlMs: config.APPROVAL_TTL * 1000, now }),
  };
}
