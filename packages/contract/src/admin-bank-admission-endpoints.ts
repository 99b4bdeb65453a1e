import {
  AddExclusionRuleBody,
  AdmitBanksBody,
  BankAdmissionQueue,
  BankExclusion,
  BankExclusionList,
  BankExclusionOutcome,
  ExcludeBanksBody,
  ExclusionParams,
  UnexcludeBanksBody,
} from './admin-bank-admissions.js';
import { BankChangeQuery, BankListOutcome } from './admin-bank-versions.js';
import { adminEndpoint } from './admin-endpoint.js';
import { bankChangeQuery, type BankChangeOptions } from './bank-change-query.js';
import { ADMIN_BANK_ADMISSIONS_PATH, ADMIN_BANK_ADMIT_PATH, ADMIN_BANK_EXCLUDE_PATH, ADMIN_BANK_EXCLUSION_PATH, ADMIN_BANK_EXCLUSIONS_PATH, ADMIN_BANK_UNEXCLUDE_PATH } from './paths.js';

const tags = ['Banks'];

/**
 * The review queue of new registry banks and the exclusions (issue 34). Every change is a checked action.
 *
 * @example
 * ```ts
 * const { banks } = await admin.bankAdmissions.queue();
 * await admin.bankAdmissions.admit(banks.filter((bank) => bank.state === 'pending').slice(0, 20).map(({ bic }) => ({ bic })));
 * await admin.bankAdmissions.exclude(['044525444'], 'wallets only');
 * ```
 */
export const BANK_ADMISSION_ENDPOINTS = {
  queue: adminEndpoint({
    method: 'GET',
    path: ADMIN_BANK_ADMISSIONS_PATH,
    operationId: 'listBankAdmissions',
    tags,
    summary: 'The review queue: new SBP head offices a registry merge or sync found, pending or excluded (with the exclusion), with suggested display names',
    status: 200,
    answer: BankAdmissionQueue,
    permission: 'read',
    cli: 'bank queue',
    send: () => ({}),
  }),
  /** Appends queued banks at the end as one version, each under `name` or its suggested name. */
  admit: adminEndpoint({
    method: 'POST',
    path: ADMIN_BANK_ADMIT_PATH,
    operationId: 'admitBanks',
    tags,
    summary: 'Admit queued banks: appended at the end of the list, in the order given, as one version (maker-checker action banks.admit)',
    description: 'Each bank is published under `name` or, left out, its suggested name. 404 `bank_not_queued` for a BIC the queue does not hold, 409 `bank_excluded` for an excluded one; nothing is changed then.',
    querystring: BankChangeQuery,
    body: AdmitBanksBody,
    status: 200,
    answer: BankListOutcome,
    permission: 'banks.write',
    audit: 'banks.admit',
    checked: 'banks.admit',
    cli: 'bank admit',
    send: (banks: AdmitBanksBody['banks'], options: BankChangeOptions = {}) => ({ query: bankChangeQuery(options), body: { banks } }),
  }),
  exclude: adminEndpoint({
    method: 'POST',
    path: ADMIN_BANK_EXCLUDE_PATH,
    operationId: 'excludeBanks',
    tags,
    summary: 'Exclude BICs: kept out of the list across every sync and import, with the reason (maker-checker action banks.exclude)',
    description: 'A published bank cannot be excluded (409 `bank_listed`): remove it first.',
    body: ExcludeBanksBody,
    status: 200,
    answer: BankExclusionOutcome,
    permission: 'banks.write',
    audit: 'banks.exclude',
    checked: 'banks.exclude',
    cli: 'bank exclude',
    send: (bics: string[], reason: string) => ({ body: { bics, reason } }),
  }),
  unexclude: adminEndpoint({
    method: 'POST',
    path: ADMIN_BANK_UNEXCLUDE_PATH,
    operationId: 'unexcludeBanks',
    tags,
    summary: 'Lift the exclusion of BICs: back to the queue while the registry lists them (maker-checker action banks.unexclude)',
    description: 'Lifts BIC exclusions only; a bank a name rule excludes stays excluded until the rule is removed.',
    body: UnexcludeBanksBody,
    status: 200,
    answer: BankExclusionOutcome,
    permission: 'banks.write',
    audit: 'banks.unexclude',
    checked: 'banks.unexclude',
    cli: 'bank unexclude',
    send: (bics: string[]) => ({ body: { bics } }),
  }),
  exclusions: adminEndpoint({
    method: 'GET',
    path: ADMIN_BANK_EXCLUSIONS_PATH,
    operationId: 'listBankExclusions',
    tags,
    summary: 'Every exclusion (BICs and name rules, the default rules included), oldest first',
    status: 200,
    answer: BankExclusionList,
    permission: 'read',
    cli: 'bank exclusions',
    send: () => ({}),
  }),
  /** A name rule: whole words of a registry name, in order. */
  addRule: adminEndpoint({
    method: 'POST',
    path: ADMIN_BANK_EXCLUSIONS_PATH,
    operationId: 'addBankExclusionRule',
    tags,
    summary: 'Add a name rule: registry banks whose name holds these whole words, in order, are kept out (maker-checker action banks.exclusion.add)',
    body: AddExclusionRuleBody,
    status: 201,
    answer: BankExclusion,
    permission: 'banks.write',
    audit: 'banks.exclusion.add',
    checked: 'banks.exclusion.add',
    cli: 'bank exclusion',
    send: (value: string, reason: string) => ({ body: { value, reason } }),
  }),
  removeExclusion: adminEndpoint({
    method: 'DELETE',
    path: ADMIN_BANK_EXCLUSION_PATH,
    operationId: 'removeBankExclusion',
    tags,
    summary: 'Remove an exclusion, a rule or a BIC (maker-checker action banks.exclusion.remove)',
    params: ExclusionParams,
    status: 204,
    answer: { type: 'null', description: 'Removed' },
    permission: 'banks.write',
    audit: 'banks.exclusion.remove',
    checked: 'banks.exclusion.remove',
    cli: 'bank exclusion',
    send: (id: number) => ({ params: { id: String(id) } }),
  }),
};
