import { BankListOutcome, BankVersionPage, BankVersionQuery, BankVersionView, RestoreQuery, VersionParams } from './admin-bank-versions.js';
import { adminEndpoint } from './admin-endpoint.js';
import { bankChangeQuery, queryFlag, type BankChangeOptions } from './bank-change-query.js';
import { ADMIN_BANK_RESTORE_PATH, ADMIN_BANK_VERSION_PATH, ADMIN_BANK_VERSIONS_PATH } from './paths.js';

const tags = ['Banks'];

/** The bank list's history: versions newest first, one version with its diff, and restoring one (part of BANK_ENDPOINTS). */
export const BANK_VERSION_ENDPOINTS = {
  /** Versions, newest first; pass `nextCursor` for older ones. */
  versions: adminEndpoint({
    method: 'GET',
    path: ADMIN_BANK_VERSIONS_PATH,
    operationId: 'listBankVersions',
    tags,
    summary: 'Versions of the bank list, newest first (cursor-paged)',
    querystring: BankVersionQuery,
    status: 200,
    answer: BankVersionPage,
    permission: 'read',
    cli: 'bank versions',
    send: (query: { cursor?: string; limit?: number } = {}) => ({ query: { cursor: query.cursor, limit: query.limit === undefined ? undefined : String(query.limit) } }),
  }),
  version: adminEndpoint({
    method: 'GET',
    path: ADMIN_BANK_VERSION_PATH,
    operationId: 'getBankVersion',
    tags,
    summary: 'One version: its list and its changes from the version before it',
    params: VersionParams,
    status: 200,
    answer: BankVersionView,
    permission: 'read',
    cli: 'bank show-version',
    send: (n: number) => ({ params: { n: String(n) } }),
  }),
  /** A new version equal to version `n` (maker-checker action `banks.restore`); `dryRun` previews. */
  restore: adminEndpoint({
    method: 'POST',
    path: ADMIN_BANK_RESTORE_PATH,
    operationId: 'restoreBankVersion',
    tags,
    summary: 'Restore a version: a new version equal to it (maker-checker action banks.restore); dryRun=true previews',
    description: 'Partners then get byte for byte the body (and ETag) they got when that version was current. `baseVersion`: 409 if the list has changed since.',
    params: VersionParams,
    querystring: RestoreQuery,
    status: 200,
    answer: BankListOutcome,
    permission: 'banks.write',
    audit: 'banks.restore',
    checked: 'banks.restore',
    cli: 'bank restore',
    send: (n: number, options: BankChangeOptions & { dryRun?: boolean } = {}) => ({ params: { n: String(n) }, query: { ...bankChangeQuery(options), dryRun: queryFlag(options.dryRun) } }),
  }),
};
