/** The limits a sync must stay within to be applied without an operator (BANKS_SYNC_MAX_REMOVALS, BANKS_SYNC_MIN_BANKS). */
export interface RemovalLimits {
  maxRemovals: number;
  minBanks: number;
}

/**
 * Why a sync must be held for an operator instead of applied, or null when it may apply: it would remove more
 * banks than `maxRemovals`, or leave fewer than `minBanks`. A directory cut short, a registry outage that drops
 * SBP codes, or a wrong file at the source all look like this, and partners would lose banks consumers choose.
 *
 * @example
 * ```ts
 * holdReason({ removed: 30, banks: 184 }, { maxRemovals: 10, minBanks: 20 });
 * // 'it would remove 30 banks (more than BANKS_SYNC_MAX_REMOVALS, 10)'
 * ```
 */
export function holdReason(change: { removed: number; banks: number }, limits: RemovalLimits): string | null {
  const reasons: string[] = [];
  if (change.removed > limits.maxRemovals) reasons.push(`it would remove ${change.removed} banks (more than BANKS_SYNC_MAX_REMOVALS, ${limits.maxRemovals})`);
  if (change.banks < limits.minBanks) reasons.push(`it would leave ${change.banks} banks (fewer than BANKS_SYNC_MIN_BANKS, ${limits.minBanks})`);
  return reasons.length > 0 ? reasons.join(', and ') : null;
}
