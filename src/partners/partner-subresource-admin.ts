import { errors } from '../errors.js';
import type { Partner } from './partner.js';
import type { PartnerChanges, PartnerRepository } from './partner-repository.js';

/**
 * One of a partner's sub-resources (its public keys, its client certificates, …) as the admin API changes it:
 * PUT sets it from a body, DELETE removes it. Each answers the sub-resource before and after, which is also
 * what its audit entry keeps.
 */
export interface PartnerSubresourceAdmin<Body, View> {
  /**
   * Sets the sub-resource from `body` (422 naming each refused part; 404 for an unknown partner). A change that
   * takes away something the partner proved itself with ends its sessions.
   */
  set(login: string, body: Body): Promise<SubresourceChange<View>>;
  /**
   * What `set` would do, changing nothing (maker-checker's preview): the same refusals, the sub-resource after as it
   * would be, and the partner's state the preview was computed on (`base`: any change to the partner moves it).
   */
  preview(login: string, body: Body): Promise<SubresourceChange<View> & { base: string }>;
  /** Removes the sub-resource (the partner cannot use what it held any more); its sessions end if it had something to take away. */
  remove(login: string): Promise<SubresourceChange<View>>;
}

/** A sub-resource before and after a change (null when the partner has none), and whether the change ended the partner's sessions. */
export interface SubresourceChange<View> {
  before: View | null;
  after: View | null;
  /** Every token issued to the partner before the change stops working on its next use. */
  sessionsEnded: boolean;
}

/** How a sub-resource is stored in the partner's fields: what is kept of a body, what removal clears, what ends sessions, what is shown. */
export interface PartnerSubresource<Body, View> {
  /** The partner fields `body` sets, checked (throws the 422); `before` is the partner as it is. */
  changesOf(body: Body, before: Partner): PartnerChanges | Promise<PartnerChanges>;
  /** The partner fields removing the sub-resource clears. */
  removal: PartnerChanges;
  /** True when `changes` take away something `before` could prove itself with: tokens obtained with it must not outlive it. */
  endsSessions(before: Partner, changes: PartnerChanges): boolean;
  /** The sub-resource as the admin API shows it (never more than public identities), or null when the partner has none. */
  view(partner: Partner): View | null;
}

/**
 * The admin service of one sub-resource, from its description.
 *
 * @example
 * ```ts
 * const keys = createPartnerSubresourceAdmin(partners, { changesOf, removal: { jwks: null }, endsSessions, view: toPartnerJwksView });
 * const { before, after, sessionsEnded } = await keys.set('acme', body);
 * ```
 */
export function createPartnerSubresourceAdmin<Body, View>(partners: PartnerRepository, subresource: PartnerSubresource<Body, View>): PartnerSubresourceAdmin<Body, View> {
  /** The partner as it is and the changes `changesOf` makes to it, refused as a change would be. */
  async function plan(login: string, changesOf: (before: Partner) => PartnerChanges | Promise<PartnerChanges>) {
    const before = await partners.findByLogin(login);
    if (!before) throw errors.partnerNotFound(login);
    const changes = await changesOf(before);
    return { before, changes, sessionsEnded: subresource.endsSessions(before, changes) };
  }
  async function change(login: string, changesOf: (before: Partner) => PartnerChanges | Promise<PartnerChanges>): Promise<SubresourceChange<View>> {
    const { before, changes, sessionsEnded } = await plan(login, changesOf);
    const updated = await partners.update(login, sessionsEnded ? { ...changes, revokeTokens: true } : changes);
    if (!updated) throw errors.partnerNotFound(login);
    return { before: subresource.view(before), after: subresource.view(updated), sessionsEnded };
  }
  return {
    set: (login, body) => change(login, (before) => subresource.changesOf(body, before)),
    async preview(login, body) {
      const { before, changes, sessionsEnded } = await plan(login, (partner) => subresource.changesOf(body, partner));
      return { before: subresource.view(before), after: subresource.view({ ...before, ...changes }), sessionsEnded, base: `${before.id}@${before.updatedAt.toISOString()}` };
    },
    remove: (login) => change(login, () => ({ ...subresource.removal })),
  };
}
