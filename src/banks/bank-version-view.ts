import type { BankVersionSummary } from '@partner-gateway/contract/admin-bank-versions';
import type { BankVersion } from './bank-version-repository.js';

/** A stored version as the history lists it (without its list and changes). */
export function toVersionSummary(version: BankVersion): BankVersionSummary {
  return {
    number: version.number,
    createdAt: version.createdAt.toISOString(),
    author: version.author,
    approver: version.approver,
    source: version.source,
    fileName: version.fileName,
    comment: version.comment,
    restoredFrom: version.restoredFrom,
    banks: version.bankCount,
    added: version.added,
    removed: version.removed,
    changed: version.changed,
    etag: version.etag,
  };
}
