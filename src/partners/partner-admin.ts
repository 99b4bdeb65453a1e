import { randomUUID } from 'node:crypto';
import { errors, type ErrorDetail } from '../errors.js';
import { normalizeAllowlist } from './ip-allowlist.js';
import { MIN_PASSWORD_LENGTH, type CreatePartnerBody, type PartnerView, type UpdatePartnerBody } from '@partner-gateway/contract/admin-partners';
import { toPartnerView as toView, unknownRewardTypes, type Partner } from './partner.js';
import type { PartnerChanges, PartnerRepository } from './partner-repository.js';
import { hashPassword } from './password-hasher.js';

/**
 * The partner registry as the admin API uses it, in the contract's shapes. Views never carry the password hash.
 * A partner's keys and certificates are its sub-resources, changed through their own services (partner-key-admin.ts,
 * partner-certificate-admin.ts).
 */
export interface PartnerAdmin {
  create(input: CreatePartnerBody): Promise<PartnerView>;
  /** A body checked (every problem in one 422) with its password hashed: what is submitted to maker-checker. */
  hashedCreation(input: CreatePartnerBody): Promise<PartnerCreation>;
  /** A partner created from a body whose password came already hashed (hashedCreation): what maker-checker applies. */
  createHashed(input: PartnerCreation): Promise<PartnerView>;
  /** What createHashed would store (its settings normalized), checked now: 409 when the login is taken, 422 for bad settings. */
  previewCreate(input: PartnerCreation): Promise<PartnerCreation>;
  list(): Promise<PartnerView[]>;
  get(login: string): Promise<PartnerView>;
  /** The change, and the partner before and after it (for the audit trail). */
  update(login: string, input: PartnerUpdate): Promise<PartnerChange>;
  /**
   * What update would do, checked as update checks it, without changing anything: what an approver is shown,
   * so that a change that would be refused is refused when it is proposed, not when it is approved.
   */
  previewUpdate(login: string, input: PartnerUpdate): Promise<PartnerChange>;
  /**
   * A new password, checked as a change checks it, as the partner row stores it (argon2id): what a change waiting
   * for approval keeps instead of the password.
   */
  hashNewPassword(password: string): Promise<string>;
  /** Removes the partner; returns it as it was. */
  remove(login: string): Promise<PartnerView>;
  /** How many partners there are (the demo partner is created only when there are none). */
  count(): Promise<number>;
  /** The reward types a partner may be given (REWARD_TYPES), in their configured order. */
  rewardTypes(): string[];
  /** Partners holding reward types outside the catalogue (stored before REWARD_TYPES left them out), for the start-up report. */
  withUnknownRewardTypes(): Promise<Array<{ login: string; unknownRewardTypes: string[] }>>;
}

/** A new partner as a proposal keeps it: the body with its first password hashed (hashNewPassword), never the password. */
export type PartnerCreation = Omit<CreatePartnerBody, 'password'> & { passwordHash: string };

/** A change of a partner: the body, whose new password may come already hashed (hashNewPassword). */
export type PartnerUpdate = UpdatePartnerBody & { passwordHash?: string };

/** A partner before and after a change, and whether the change ended its sessions (for the audit trail). */
export interface PartnerChange {
  before: PartnerView;
  after: PartnerView;
  /** Every token issued to the partner before the change stops working on its next use. */
  sessionsEnded: boolean;
}

/**
 * `rewardTypes` is the catalogue (REWARD_TYPES): a create or update giving a partner any other type is refused
 * (422, each unknown type named with the valid ones), so that a typo such as `spb` cannot leave a partner without
 * the type it was meant to get. Types stored before the catalogue left them out stay, shown in the view's
 * `unknownRewardTypes` until an operator sets the partner's types again.
 */
export function createPartnerAdmin(partners: PartnerRepository, rewardTypes: readonly string[]): PartnerAdmin {
  const catalogue: ReadonlySet<string> = new Set(rewardTypes);
  const toPartnerView = (partner: Partner) => toView(partner, catalogue);
  async function hashedCreation(input: CreatePartnerBody): Promise<PartnerCreation> {
    const { password, ...settings } = input;
    const problems: ErrorDetail[] = [];
    // Only its problems, so that one 422 lists them with the password's; createHashed normalizes what it stores.
    normalizedCreation(settings, catalogue, problems);
    checkPassword(password, problems);
    if (problems.length > 0) throw errors.validationFailed(problems);
    return { ...settings, passwordHash: await hashPassword(password) };
  }
  async function createHashed(input: PartnerCreation): Promise<PartnerView> {
    const problems: ErrorDetail[] = [];
    // Every field of the body but the normalized ones is stored as it comes, under its own name (the partner field map).
    const stored = normalizedCreation(input, catalogue, problems);
    if (problems.length > 0) throw errors.validationFailed(problems);
    const created = await partners.insert({ status: 'active', ...stored, id: randomUUID() });
    if (!created) throw errors.partnerExists(input.login);
    return toPartnerView(created);
  }
  return {
    async create(input) {
      return createHashed(await hashedCreation(input));
    },
    hashedCreation,
    createHashed,
    async previewCreate(input) {
      const problems: ErrorDetail[] = [];
      const stored = normalizedCreation(input, catalogue, problems);
      if (problems.length > 0) throw errors.validationFailed(problems);
      if (await partners.findByLogin(input.login)) throw errors.partnerExists(input.login);
      return stored;
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
      const changes = planUpdate(before, input, catalogue);
      if (input.password !== undefined) changes.passwordHash = await hashPassword(input.password);
      const updated = await partners.update(login, changes);
      if (!updated) throw errors.partnerNotFound(login);
      return { before: toPartnerView(before), after: toPartnerView(updated), sessionsEnded: changes.revokeTokens === true };
    },
    async previewUpdate(login, input) {
      const before = await partners.findByLogin(login);
      if (!before) throw errors.partnerNotFound(login);
      const { revokeTokens, passwordHash: _hash, ...fields } = planUpdate(before, input, catalogue);
      return { before: toPartnerView(before), after: toPartnerView({ ...before, ...fields }), sessionsEnded: revokeTokens === true };
    },
    async hashNewPassword(password) {
      const problems: ErrorDetail[] = [];
      checkPassword(password, problems);
      if (problems.length > 0) throw errors.validationFailed(problems);
      return hashPassword(password);
    },
    async remove(login) {
      const before = await partners.findByLogin(login);
      if (!before || !(await partners.delete(login))) throw errors.partnerNotFound(login);
      return toPartnerView(before);
    },
    count: () => partners.count(),
    rewardTypes: () => [...rewardTypes],
    async withUnknownRewardTypes() {
      const holding = await partners.withRewardTypesOutside(rewardTypes);
      return holding.map((partner) => ({ login: partner.login, unknownRewardTypes: unknownRewardTypes(partner.rewardTypes, catalogue) }));
    },
  };
}

/**
 * Each reward type outside the catalogue, told the ones there are, in the words the admin routes' schema gives
 * (partnerBodiesFor's enum): the routes refuse such a body before it gets here; this holds for every other caller.
 */

/**
 * The stored changes an update makes of `partner` (all but a plain password's hash, which update adds), checked:
 * a 422 naming every problem. A block or a new password ends every session: tokens issued before stop working on
 * their next use. So does a stricter policy (the password taken away, or binding required): tokens issued under
 * the weaker one must not outlive it.
 */
function planUpdate(before: Partner, input: PartnerUpdate, catalogue: ReadonlySet<string>): PartnerChanges {
  // Every field of the body but these five is stored as it comes, under its own name (the partner field map).
  const { password, passwordHash, ipAllowlist, rewardTypes, authMethods, requireSenderConstrainedTokens, ...stored } = input;
  const problems: ErrorDetail[] = [];
  const changes: PartnerChanges = { ...stored };
  if (ipAllowlist !== undefined) changes.ipAllowlist = normalizeAllowlist(ipAllowlist, problems);
  if (rewardTypes !== undefined) {
    checkRewardTypes(rewardTypes, catalogue, problems);
    changes.rewardTypes = normalizeRewardTypes(rewardTypes);
  }
  if (password !== undefined) checkPassword(password, problems);
  if (authMethods !== undefined) changes.authMethods = [...new Set(authMethods)];
  if (requireSenderConstrainedTokens !== undefined) changes.requireBoundTokens = requireSenderConstrainedTokens;
  if (problems.length > 0) throw errors.validationFailed(problems);
  if (passwordHash !== undefined) changes.passwordHash = passwordHash;
  // An operator's new password, or an overlap ended by hand, leaves no previous password working: the case is a leak.
  const overlapEnded = passwordHash !== undefined || password !== undefined || input.previousPasswordUntil === null;
  if (overlapEnded) Object.assign(changes, { previousPasswordHash: null, previousPasswordUntil: null });
  const passwordWithdrawn = changes.authMethods !== undefined && before.authMethods.includes('password') && !changes.authMethods.includes('password');
  const bindingRequired = changes.requireBoundTokens === true && !before.requireBoundTokens;
  if (input.status === 'blocked' || overlapEnded || passwordWithdrawn || bindingRequired) changes.revokeTokens = true;
  return changes;
}
function checkRewardTypes(types: readonly string[], catalogue: ReadonlySet<string>, problems: ErrorDetail[]): void {
  types.forEach((type, index) => {
    if (!catalogue.has(type)) problems.push({ field: `rewardTypes[${index}]`, message: `must be one of: ${[...catalogue].join(', ')}` });
  });
}

/** A new partner's settings as stored: active unless it says otherwise, the allowlist and reward types normalized, their problems noted. */
function normalizedCreation<T extends Omit<PartnerCreation, 'passwordHash'>>(input: T, catalogue: ReadonlySet<string>, problems: ErrorDetail[]): T {
  const ipAllowlist = normalizeAllowlist(input.ipAllowlist, problems);
  checkRewardTypes(input.rewardTypes, catalogue, problems);
  return { ...input, status: input.status ?? 'active', ipAllowlist, rewardTypes: normalizeRewardTypes(input.rewardTypes) };
}

function normalizeRewardTypes(types: readonly string[]): string[] {
  return [...new Set(types)].sort();
}

function checkPassword(password: string, problems: ErrorDetail[]): void {
  if (password.length < MIN_PASSWORD_LENGTH) {
    problems.push({ field: 'password', message: `must be at least ${MIN_PASSWORD_LENGTH} characters` });
  }
}
