import type { Permission } from '@partner-gateway/contract/admin-permissions';
import type { AuditAction } from '@partner-gateway/contract/audit-names';
import type { CheckedActionName } from '@partner-gateway/contract/admin-approvals';
import type { RequestContext } from '../request-context.js';

/** What a change would do, computed from the current state without changing it. */
export interface ChangePreview {
  /** What it changes, in words: `partner acme`, `signing key 0b9Qm...`. */
  target: string;
  /** What approving it will do (before and after, or what is created or removed): shown to the approver. */
  preview: unknown;
  /**
   * A fingerprint of the state the preview was computed from (a row's id and update time, a version number): an
   * approval computes it again and refuses (409) when it differs, so that what is applied is what was previewed.
   */
  base: string;
  /** The partner it concerns, for the proposal's audit entry. */
  partner?: string;
  /**
   * Why this change must wait for a second operator even when the settings do not ask for one (a bank list change
   * over the removal guard's limits), or absent. Only a `guarded` action's preview is asked before it is applied.
   */
  holdReason?: string;
}

/**
 * One action maker-checker can hold for a second operator: how to preview it, the base it depends on, and how
 * to apply it. The request is stored as JSON and applied as it was made, so it must never carry a secret.
 *
 * @example
 * ```ts
 * const revokeKey: CheckedAction<{ kid: string }, KeyView> = {
 *   action: 'key.revoke', permission: 'keys.write', description: 'Revoke a signing or encryption key',
 *   preview: async ({ kid }) => ({ target: `key ${kid}`, preview: await keys.describe(kid), base: await keys.fingerprint(kid) }),
 *   apply: async ({ kid }, context) => keys.revoke(kid, context),
 * };
 * ```
 */
export interface CheckedAction<Input = any, Result = any> {
  /** The audited action (its audit entry's `action` whether applied at once or on approval). */
  action: AuditAction & CheckedActionName;
  /** What proposing and approving it needs. */
  permission: Permission;
  /** One line for the settings list. */
  description: string;
  /**
   * Previewed before every submission, not only under maker-checker: its preview's `holdReason` makes it a
   * proposal whatever the settings say (the removal guard: a change that would take many banks from partners).
   */
  guarded?: boolean;
  /** The permissions its approver needs for this request, when they depend on what it changes (a partner's fields); `[permission]` otherwise. */
  permissionsFor?(input: Input): Permission[];
  /** What proposals show of a request that keeps something not to be shown (a new password's hash); the request itself by default. */
  shownRequest?(input: Input): unknown;
  /** Throws the change's own refusals (404, 422) so that a proposal that could never apply is refused when made. */
  preview(input: Input): Promise<ChangePreview>;
  /** Makes the change, noting its audit details (and partner) in `context.audit`; answers what the route answers. */
  apply(input: Input, context: RequestContext): Promise<Result>;
}

/** The actions maker-checker knows, by name. */
export interface ActionRegistry {
  register(...actions: CheckedAction[]): void;
  get(action: string): CheckedAction | undefined;
  list(): CheckedAction[];
}

export function createActionRegistry(): ActionRegistry {
  const actions = new Map<string, CheckedAction>();
  return {
    register(...added) {
      for (const action of added) {
        if (actions.has(action.action)) throw new Error(`checked action ${action.action} registered twice`);
        actions.set(action.action, action);
      }
    },
    get: (action) => actions.get(action),
    list: () => [...actions.values()],
  };
}
