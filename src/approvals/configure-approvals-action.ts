import type { SetApprovalSettingsBody } from '@partner-gateway/contract/admin-approvals';
import { errors } from '../errors.js';
import type { ApprovalSettingsStore } from './approval-settings.js';
import type { ActionRegistry, CheckedAction } from './checked-action.js';

/**
 * `approvals.configure`: which actions need a second operator. Itself checkable, so that once it needs approval
 * nobody can switch maker-checker off alone (the setting docs/admin.md recommends for production).
 */
export function configureApprovalsAction(registry: ActionRegistry, settings: ApprovalSettingsStore, changed: () => void): CheckedAction<SetApprovalSettingsBody, { required: string[] }> {
  async function plan(input: SetApprovalSettingsBody) {
    const unknown = input.required.flatMap((action, index) => (registry.get(action) ? [] : [{ field: `required[${index}]`, message: `${action} is not an action that can need approval` }]));
    if (unknown.length > 0) throw errors.validationFailed(unknown);
    const before = [...(await settings.requiredActions())].sort();
    return { before, after: [...new Set(input.required)].sort() };
  }
  return {
    action: 'approvals.configure',
    permission: 'approvals.settings',
    description: 'Change which actions need a second operator',
    async preview(input) {
      const { before, after } = await plan(input);
      return { target: 'maker-checker settings', preview: { before, after }, base: before.join(',') };
    },
    async apply(input, context) {
      const { before, after } = await plan(input);
      await settings.replace(after, context.actor?.id ?? 'bootstrap');
      changed();
      context.audit.details = { ...context.audit.details, before, after };
      return { required: after };
    },
  };
}
