import type { BankListOutcome } from '@partner-gateway/contract/admin-bank-versions';
import type { AdminBank, EditBankBody } from '@partner-gateway/contract/admin-banks';
import { curatedTextOf } from '@partner-gateway/contract/bank-curated-fields';
import type { CheckedAction } from '../../approvals/checked-action.js';
import type { BankAdmin, ChangeOptions } from '../../banks/bank-admin.js';
import type { RemovalLimits } from '../../banks/sync/removal-guard.js';
import { removalHold, shown } from './bank-actions.js';

type Versioned = Pick<ChangeOptions, 'baseVersion' | 'comment'>;
export type AddBankInput = Versioned & { bank: unknown };
export type EditBankInput = Versioned & { bic: string; body: EditBankBody };
export type RemoveBankInput = Versioned & { bic: string };

const optionsOf = ({ baseVersion, comment }: Versioned, dryRun = false): ChangeOptions => ({
  ...(baseVersion !== undefined ? { baseVersion } : {}),
  ...(comment ? { comment } : {}),
  ...(dryRun ? { dryRun } : {}),
});
const previewOf = (target: string, outcome: BankListOutcome, holdReason?: string) => ({
  target,
  preview: { ...shown(outcome), ...(holdReason ? { heldBecause: holdReason } : {}) },
  base: String(outcome.baseVersion),
  ...(holdReason ? { holdReason } : {}),
});

/**
 * One bank's changes as maker-checker actions, so that a second pair of eyes can be asked for any change partners
 * see: adding a bank, editing its curated fields or position, removing it. A removal that would leave fewer banks
 * than BANKS_SYNC_MIN_BANKS is held for a second operator whatever the settings (the sync's removal guard).
 */
export function bankEditActions(banks: BankAdmin, limits: RemovalLimits): CheckedAction[] {
  const add: CheckedAction<AddBankInput, { bank: AdminBank; outcome: BankListOutcome }> = {
    action: 'bank.add',
    permission: 'banks.write',
    description: 'Add a bank at the end of the list (partners offer it to consumers at once)',
    async preview(input) {
      const { outcome } = await banks.add(input.bank, undefined, optionsOf(input, true));
      return previewOf(`the bank list: add ${outcome.added.join(', ')}`, outcome);
    },
    async apply(input, context) {
      const { bank, outcome } = await banks.add(input.bank, context, optionsOf(input));
      context.audit.details = { ...context.audit.details, after: { bic: bank!.bic, name: bank!.name, ...curatedTextOf(bank!) }, version: outcome.version };
      return { bank: bank!, outcome };
    },
  };
  const edit: CheckedAction<EditBankInput, BankListOutcome> = {
    action: 'bank.edit',
    permission: 'banks.write',
    description: "Edit a bank's display name, Latin name, member id or position",
    async preview(input) {
      return previewOf(`bank ${input.bic}`, await banks.edit(input.bic, input.body, undefined, optionsOf(input, true)));
    },
    async apply(input, context) {
      const outcome = await banks.edit(input.bic, input.body, context, optionsOf(input));
      context.audit.details = { ...context.audit.details, bic: input.bic, version: outcome.version, changes: outcome.changes };
      return outcome;
    },
  };
  const remove: CheckedAction<RemoveBankInput, BankListOutcome> = {
    action: 'bank.remove',
    permission: 'banks.write',
    description: 'Remove a bank (partners stop offering it to consumers)',
    guarded: true,
    async preview(input) {
      const outcome = await banks.remove(input.bic, undefined, optionsOf(input, true));
      return previewOf(`bank ${input.bic}`, outcome, await removalHold(banks, outcome, limits));
    },
    async apply(input, context) {
      const outcome = await banks.remove(input.bic, context, optionsOf(input));
      context.audit.details = { ...context.audit.details, bic: input.bic, version: outcome.version };
      return outcome;
    },
  };
  return [add, edit, remove];
}
