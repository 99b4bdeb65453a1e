import { DEFAULT_OVERLAP_SECONDS } from '@partner-gateway/contract/self-service';

/**
 * When a rotation made at `now` (ms) retires the credentials it keeps: `overlapSeconds` later, 24 hours when the
 * partner chose none (0: at once). The rule every self-service rotation shares: key, certificate, API password.
 *
 * @example
 * ```ts
 * const retireAt = retirementOf(Date.now(), body.overlapSeconds); // ms
 * ```
 */
export function retirementOf(now: number, overlapSeconds: number | undefined): number {
  return now + (overlapSeconds ?? DEFAULT_OVERLAP_SECONDS) * 1000;
}

/**
 * The end a credential kept beside a new one gets (ISO 8601): the rotation's `retireAt`, unless it already ends
 * sooner: a rotation never extends an end an earlier one set.
 *
 * @example
 * ```ts
 * overlapEnd(retireAt, key.expiresAt); // '2026-11-30T09:00:00.000Z'
 * ```
 */
export function overlapEnd(retireAt: number, current: string | undefined): string {
  return new Date(current === undefined ? retireAt : Math.min(retireAt, Date.parse(current))).toISOString();
}
