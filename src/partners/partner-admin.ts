import { randomUUID } from 'node:crypto';
import { errors, type ErrorDetail } from '../errors.js';
import { normalizeCidr } from './ip-allowlist.js';
import { toPartnerView, type PartnerStatus, type PartnerView } from './partner.js';
import type { PartnerChanges, PartnerRepository } from './partner-repository.js';
import { hashPassword } from './password-hasher.js';

export interface NewPartnerInput {
  login: string;
  password: string;
  ipAllowlist: string[];
  rewardTypes: string[];
  status?: PartnerStatus;
}

export interface PartnerUpdateInput {
  status?: PartnerStatus;
  password?: string;
  ipAllowlist?: string[];
  rewardTypes?: string[];
}

/** The partner registry's write side. Views never carry the password hash. */
export interface PartnerAdmin {
  create(input: NewPartnerInput): Promise<PartnerView>;
  list(): Promise<PartnerView[]>;
  get(login: string): Promise<PartnerView>;
  update(login: string, input: PartnerUpdateInput): Promise<PartnerView>;
  remove(login: string): Promise<void>;
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
      return toPartnerView(updated);
    },
    async remove(login) {
      if (!(await partners.delete(login))) throw errors.partnerNotFound(login);
    },
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
