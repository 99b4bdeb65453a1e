import { createHash } from 'node:crypto';
import type { BankListEntry } from '@partner-gateway/contract/admin-bank-versions';

/**
 * The partners' banks body for a list, exactly the specification's shape, `{"banks":[{"name","bic"},...]}`, and
 * its strong ETag (RFC 9110: the body's SHA-256, base64url, quoted). Both are computed once per version: the same
 * list always gives the same bytes, which is what makes a restore byte-identical.
 *
 * @example
 * ```ts
 * partnerBody([{ bic: '044525225', name: 'Сбербанк', ... }]); // '{"banks":[{"name":"Сбербанк","bic":"044525225"}]}'
 * ```
 */
export function partnerBody(list: readonly Pick<BankListEntry, 'name' | 'bic'>[]): string {
  return JSON.stringify({ banks: list.map((bank) => ({ name: bank.name, bic: bank.bic })) });
}

/** The strong ETag of a body. */
export function strongEtag(body: string): string {
  return `"${createHash('sha256').update(body).digest('base64url')}"`;
}

/**
 * The banks partners receive of a list: all of them, or with BANKS_PARTICIPANTS_REQUIRED those the settlement
 * bank's participant list did not leave out (`participantsListed` false; a bank never matched against a list, null, stays).
 */
export function publishedBanks<T extends Pick<BankListEntry, 'participantsListed'>>(list: readonly T[], participantsRequired: boolean): readonly T[] {
  return participantsRequired ? list.filter((bank) => bank.participantsListed !== false) : list;
}
