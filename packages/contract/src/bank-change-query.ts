import type { BankChangeQuery } from './admin-bank-versions.js';

/** What every change of the bank list may carry: the version it was previewed on, and a comment for the history. */
export interface BankChangeOptions {
  baseVersion?: number;
  comment?: string;
}

/**
 * A change's options as its query carries them (BankChangeQuery): the version as a decimal, empty ones left out of
 * the URL (withQuery drops undefined).
 *
 * @example
 * ```ts
 * bankChangeQuery({ baseVersion: 7 }); // { baseVersion: '7', comment: undefined }
 * ```
 */
export function bankChangeQuery(options: BankChangeOptions): BankChangeQuery {
  return { baseVersion: options.baseVersion === undefined ? undefined : String(options.baseVersion), comment: options.comment };
}

/**
 * A yes/no option as a bank query carries it (`dryRun`, `confirm`): 'true', or left out of the URL.
 *
 * @example
 * ```ts
 * queryFlag(true); // 'true'
 * ```
 */
export function queryFlag(flag: boolean | undefined): 'true' | undefined {
  return flag ? 'true' : undefined;
}
