import type { CreateOperatorBody, OperatorView, UpdateOperatorBody } from '@partner-gateway/contract/admin-operators';
import type { CheckedAction } from '../../approvals/checked-action.js';
import type { OperatorAdmin } from '../../operators/operator-admin.js';

/**
 * Granting a role, which maker-checker can hold: creating an operator, and changing one's role, name or status
 * (a security operator could otherwise make an accomplice, or lift an account's disablement, alone).
 */
export function operatorActions(operators: OperatorAdmin): CheckedAction[] {
  const create: CheckedAction<CreateOperatorBody, OperatorView> = {
    action: 'operator.create',
    permission: 'operators.write',
    description: 'Create an operator with a role',
    async preview(input) {
      await operators.checkCreate(input);
      return { target: `operator ${input.name}`, preview: { created: input }, base: `new ${input.name.toLowerCase()}` };
    },
    async apply(input, context) {
      const created = await operators.create(input, context.actor?.id ?? 'bootstrap');
      context.audit.details = { ...context.audit.details, after: created };
      return created;
    },
  };
  const update: CheckedAction<{ id: string; body: UpdateOperatorBody }, OperatorView> = {
    action: 'operator.update',
    permission: 'operators.write',
    description: "Change an operator's role, name or status",
    async preview({ id, body }) {
      const before = await operators.get(id);
      const after = { ...before, ...body };
      return { target: `operator ${before.name}`, preview: { before: settingsOf(before), after: settingsOf(after) }, base: `${id}@${before.updatedAt}` };
    },
    async apply({ id, body }, context) {
      const { before, after } = await operators.update(id, body);
      context.audit.details = { ...context.audit.details, operatorId: id, before: settingsOf(before), after: settingsOf(after) };
      return after;
    },
  };
  return [create, update];
}

/** What an operator change is about (its dates and usage are not). */
function settingsOf({ name, role, status }: Pick<OperatorView, 'name' | 'role' | 'status'>) {
  return { name, role, status };
}
