import { randomUUID } from 'node:crypto';
import { errors, type ErrorDetail } from '../errors.js';
import { normalizeCidr } from './ip-allowlist.js';
import type { CreatePartnerBody, PartnerView, UpdatePartnerBody } from '@partner-gateway/contract/admin-partners';
import { toPartnerView } from './partner.js';
import type { PartnerChanges, PartnerRepository } from './partner-repository.js';
import { hashPassword } from './password-hasher.js';

/** The partner registry as the admin API uses it, in the contract's shapes. Views never carry the password hash. */
export interface PartnerAdmin {
  create(input: CreatePartnerBody): Promise<PartnerView>;
  list(): Promise<PartnerView[]>;
  get(login: string): Promise<PartnerView>;
  /** The change, and the partner before and after it (for the audit trail). */
  update(login: string, input: UpdatePartnerBody): Promise<{ before: PartnerView; after: PartnerView }>;
  /** Removes the partner; returns it as it was. */
  remove(login: string): Promise<PartnerView>;
  /** How many partners there are (the demo partner is created only when there are none). */
  count(): Promise<number>;
}

export const MIN_PASSWORD_LENGTH = 12;

export function createPartnerAdmin(partners: PartnerRepository): PartnerAdmin {
  return {
    async create(input) {
      const problems: ErrorDetail[] = [];
      const ipAllowlist = normalizeAllowlist(input.ipAllowlist, problems);
      const rewardTypes = normalizeRewardTypes(input.rewardTypes);
      checkPassword(input.password, problems);
      if (problems.length > 0) throw errors.validationFailed(problems);
      const created = await partners.insert({
        id: randomUUID(),
        login: input.login,
        passwordHash: await hashPassword(input.password),
        status: input.status ?? 'active',
        ipAllowlist,
        rewardTypes,
      });
      if (!created) throw errors.partnerExists(input.login);
      return toPartnerView(created);
    },
    async list() {
      return (await partners.list()).map(toPartnerView);
    },
    async get(login) {
      const partner = await partners.findByLogin(login);
      if (!partner) throw errors.partnerNotFound(login);
      return toPartnerView(partner);
    },
    async update(login, input) {
      const before = await partners.findByLogin(login);
      if (!before) throw errors.partnerNotFound(login);
      const problems: ErrorDetail[] = [];
      const changes: PartnerChanges = {};
      if (input.status !== undefined) changes.status = input.status;
      if (input.ipAllowlist !== undefined) changes.ipAllowlist = normalizeAllowlist(input.ipAllowlist, problems);
      if (input.rewardTypes !== undefined) changes.rewardTypes = normalizeRewardTypes(input.rewardTypes);
      if (input.password !== undefined) checkPassword(input.password, problems);
      if (problems.length > 0) throw errors.validationFailed(problems);
      if (input.password !== undefined) changes.passwordHash = await hashPassword(input.password);
      // A block or a new password ends every session: tokens issued before stop working on their next use.
      if (input.status === 'blocked' || input.password !== undefined) changes.revokeTokens = true;
      const updated = await partners.update(login, changes);
      if (!updated) throw errors.partnerNotFound(login);
      return { before: toPartnerView(before), after: toPartnerView(updated) };
    },
    async remove(login) {
      const before = await partners.findByLogin(login);
      if (!before || !(await partners.delete(login))) throw errors.partnerNotFound(login);
      return toPartnerView(before);
    },
    count: () => partners.count(),
  };
}

function normalizeAllowlist(entries: readonly string[], problems: ErrorDetail[]): string[] {
  const normalized = new Set<string>();
  entries.forEach((entry, index) => {
    const result = normalizeCidr(entry);
    if ('error' in result) problems.push({ field: `ipAllowlist[${index}]`, message: result.error });
    else normalized.add(result.cidr);
  });
  return [...normalized];
}

function normalizeRewardTypes(types: readonly string[]): string[] {
  return [...new Set(types)].sort();
}

function checkPassword(password: string, problems: ErrorDetail[]): void {
  if (password.length < MIN_PASSWORD_LENGTH) {
    problems.push({ field: 'password', message: `must be at least ${MIN_PASSWORD_LENGTH} characters` });
  }
}
