import type { BankListOutcome } from '@partner-gateway/contract/admin-bank-versions';
import type { BankExclusion, BankExclusionOutcome } from '@partner-gateway/contract/admin-bank-admissions';
import type { CheckedAction } from '../../approvals/checked-action.js';
import type { AdmitPick, BankAdmissions } from '../../banks/admission/bank-admissions.js';
import { shown } from './bank-actions.js';

export interface AdmitBanksInput {
  banks: AdmitPick[];
  baseVersion?: number;
  comment?: string;
}
export interface ExcludeBanksInput {
  bics: string[];
  reason: string;
}
export interface UnexcludeBanksInput {
  bics: string[];
}
export interface AddExclusionRuleInput {
  value: string;
  reason: string;
}
export interface RemoveExclusionRuleInput {
  id: number;
}

const versioned = ({ baseVersion, comment }: AdmitBanksInput) => ({ ...(baseVersion !== undefined ? { baseVersion } : {}), ...(comment ? { comment } : {}) });
const listed = (bics: readonly string[]) => (bics.length <= 5 ? bics.join(', ') : `${bics.slice(0, 5).join(', ')} and ${bics.length - 5} more`);

/**
 * The review queue's decisions as maker-checker actions, so that each is permissioned (banks.write), previewable,
 * can be put under approval and is audited: admitting queued banks (one version, appended at the end), excluding
 * BICs and lifting their exclusion, adding and removing a name rule. Admit is based on the list's version (409 when
 * it moved); the exclusion changes on the exclusions as they were previewed.
 */
export function bankAdmissionActions(admissions: BankAdmissions): CheckedAction[] {
  const admit: CheckedAction<AdmitBanksInput, BankListOutcome> = {
    action: 'banks.admit',
    permission: 'banks.write',
    description: 'Admit banks of the review queue: appended at the end of the list as one version (partners offer them at once)',
    async preview(input) {
      const outcome = await admissions.admit(input.banks, undefined, { ...versioned(input), dryRun: true });
      return { target: `the bank list: admit ${listed(outcome.added)}`, preview: shown(outcome), base: String(outcome.baseVersion) };
    },
    async apply(input, context) {
      const outcome = await admissions.admit(input.banks, context, versioned(input));
      context.audit.details = { ...context.audit.details, version: outcome.version, baseVersion: outcome.baseVersion, added: outcome.added, names: input.banks.filter((bank) => bank.name).map((bank) => ({ bic: bank.bic, name: bank.name })) };
      return outcome;
    },
  };
  const exclude: CheckedAction<ExcludeBanksInput, BankExclusionOutcome> = {
    action: 'banks.exclude',
    permission: 'banks.write',
    description: 'Exclude BICs: kept out of the bank list across every sync and import until the exclusion is lifted',
    async preview(input) {
      const outcome = await admissions.exclude(input.bics, input.reason, undefined, true);
      return { target: `bank exclusions: exclude ${listed(input.bics)}`, preview: { ...outcome, reason: input.reason }, base: await admissions.exclusionsBase() };
    },
    async apply(input, context) {
      const outcome = await admissions.exclude(input.bics, input.reason, context);
      context.audit.details = { ...context.audit.details, excluded: outcome.changed, reason: input.reason };
      return outcome;
    },
  };
  const unexclude: CheckedAction<UnexcludeBanksInput, BankExclusionOutcome> = {
    action: 'banks.unexclude',
    permission: 'banks.write',
    description: 'Lift the exclusion of BICs (they return to the review queue while the registry lists them)',
    async preview(input) {
      const outcome = await admissions.unexclude(input.bics, true);
      return { target: `bank exclusions: lift ${listed(input.bics)}`, preview: outcome, base: await admissions.exclusionsBase() };
    },
    async apply(input, context) {
      const outcome = await admissions.unexclude(input.bics);
      context.audit.details = { ...context.audit.details, unexcluded: outcome.changed };
      return outcome;
    },
  };
  const addRule: CheckedAction<AddExclusionRuleInput, BankExclusion> = {
    action: 'banks.exclusion.add',
    permission: 'banks.write',
    description: 'Add a name rule: registry banks whose name holds these words are kept out of the list',
    async preview(input) {
      const rule = await admissions.addRule(input.value, input.reason, undefined, true);
      return { target: `bank exclusions: rule "${rule.value}"`, preview: { kind: rule.kind, value: rule.value, reason: rule.reason }, base: await admissions.exclusionsBase() };
    },
    async apply(input, context) {
      const rule = await admissions.addRule(input.value, input.reason, context);
      context.audit.details = { ...context.audit.details, rule: { id: rule.id, kind: rule.kind, value: rule.value, reason: rule.reason } };
      return rule;
    },
  };
  const removeRule: CheckedAction<RemoveExclusionRuleInput, BankExclusion> = {
    action: 'banks.exclusion.remove',
    permission: 'banks.write',
    description: 'Remove an exclusion rule (the banks it kept out return to the review queue)',
    async preview(input) {
      const rule = await admissions.removeRule(input.id, true);
      return { target: `bank exclusions: rule ${rule.id} (${rule.kind} "${rule.value}")`, preview: { removed: rule }, base: await admissions.exclusionsBase() };
    },
    async apply(input, context) {
      const rule = await admissions.removeRule(input.id);
      context.audit.details = { ...context.audit.details, rule: { id: rule.id, kind: rule.kind, value: rule.value, reason: rule.reason } };
      return rule;
    },
  };
  return [admit, exclude, unexclude, addRule, removeRule];
}
