import { AdminBank, AdminBankList, BankExportQuery, BankInput, BicParams, EditBankBody, ImportQuery, ImportReport, ReplaceBanksBody } from '@partner-gateway/contract/admin-banks';
import { BankChangeQuery, BankListOutcome } from '@partner-gateway/contract/admin-bank-versions';
import { ErrorBody } from '@partner-gateway/contract/error-body';
import { ADMIN_BANK_EXPORT_PATH, ADMIN_BANK_IMPORT_PATH, ADMIN_BANKS_PATH } from '@partner-gateway/contract/paths';
import { IMPORT_MEDIA_TYPES } from '@partner-gateway/contract/import-media-types';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import type { Gateway } from '../../../gateway.js';
import { errors } from '../../../errors.js';
import { answerSubmitted, PROPOSED } from './answer-submitted.js';

const errorResponses = { '4xx': ErrorBody, '5xx': ErrorBody };
const tags = ['Banks'];
const VERSIONED = 'Every change makes a new version of the list (see /admin/v1/banks/versions); `baseVersion` applies it only if the list is still at that version (409 `bank_list_changed` otherwise, nothing changed).';

const GUARDED =
  'A change that would remove more banks than BANKS_SYNC_MAX_REMOVALS or leave fewer than BANKS_SYNC_MIN_BANKS (the sync\'s removal guard) is held for a second operator (202, a proposal) whatever the approval settings.';

/** What adding a bank answers once applied: the bank as stored and the list's new version. */
type AddedBank = { bank: AdminBank; outcome: BankListOutcome };

/** `baseVersion` and `comment` of a change's query, as the admin service takes them. */
export function changeOptions(query: BankChangeQuery): { baseVersion?: number; comment?: string } {
  return { ...(query.baseVersion !== undefined ? { baseVersion: Number(query.baseVersion) } : {}), ...(query.comment ? { comment: query.comment } : {}) };
}

/**
 * The bank list: list, add, edit (curated fields, move to a position), remove, replace (confirmed, checked), import.
 * A bank body the schema refuses is answered in the bank checks' words (`refusal`: every bad entry, duplicates
 * included); in the schema's own when they find nothing wrong (it is the stricter: no padding to trim, for one).
 */
export async function adminBankRoutes(untyped: FastifyInstance, { gateway }: { gateway: Gateway }): Promise<void> {
  const app = untyped.withTypeProvider<TypeBoxTypeProvider>();
  const banks = gateway.admin.banks;
  app.get(ADMIN_BANKS_PATH, { config: { permission: 'read' }, schema: { operationId: 'listAdminBanks', tags, summary: 'The bank list, in the order partners receive it, with its version', response: { 200: AdminBankList, ...errorResponses } } }, async () => {
    const [version, list] = await Promise.all([banks.currentVersion(), banks.list()]);
    return { version, banks: list };
  });
  app.put(
    ADMIN_BANKS_PATH,
    {
      config: { audit: 'banks.replace', permission: 'banks.write' },
      attachValidation: true,
      schema: {
        operationId: 'replaceBanks',
        tags,
        summary: 'Replace the whole list (all or nothing; maker-checker action banks.replace)',
        description: `Banks the body leaves out are removed; a bank that stays keeps its registry facts. ${VERSIONED}`,
        querystring: BankChangeQuery,
        body: ReplaceBanksBody,
        response: { 200: BankListOutcome, ...PROPOSED, ...errorResponses },
      },
    },
    async (request, reply) => {
      if (request.validationError) throw banks.refusal(request.body, 'list') ?? request.validationError;
      const input = { banks: request.body.banks, ...changeOptions(request.query) };
      return answerSubmitted(reply, await gateway.admin.approvals.submit('banks.replace', input, request.requestContext));
    },
  );
  app.post(
    ADMIN_BANKS_PATH,
    {
      config: { audit: 'bank.add', permission: 'banks.write' },
      attachValidation: true,
      schema: { operationId: 'addBank', tags, summary: 'Add a bank at the end of the list (maker-checker action bank.add)', description: VERSIONED, querystring: BankChangeQuery, body: BankInput, response: { 201: AdminBank, ...PROPOSED, ...errorResponses } },
    },
    async (request, reply) => {
      if (request.validationError) throw banks.refusal(request.body, 'one') ?? request.validationError;
      const submitted = await gateway.admin.approvals.submit<AddedBank>('bank.add', { bank: request.body, ...changeOptions(request.query) }, request.requestContext);
      if ('proposal' in submitted) return answerSubmitted(reply, submitted);
      return reply.code(201).header('x-bank-list-version', String(submitted.applied.outcome.version)).send(submitted.applied.bank);
    },
  );
  app.patch(
    `${ADMIN_BANKS_PATH}/:bic`,
    {
      config: { audit: 'bank.edit', permission: 'banks.write' },
      schema: {
        operationId: 'editBank',
        tags,
        summary: "Edit a bank's curated fields, or move it to a position (1-based; maker-checker action bank.edit)",
        description: `Display name, Latin name and NSPK member id (null clears); \`position\` moves the bank there, the others keeping their order. ${VERSIONED}`,
        params: BicParams,
        querystring: BankChangeQuery,
        body: EditBankBody,
        response: { 200: BankListOutcome, ...PROPOSED, ...errorResponses },
      },
    },
    async (request, reply) => {
      const input = { bic: request.params.bic, body: request.body, ...changeOptions(request.query) };
      return answerSubmitted(reply, await gateway.admin.approvals.submit('bank.edit', input, request.requestContext));
    },
  );
  app.delete(
    `${ADMIN_BANKS_PATH}/:bic`,
    {
      config: { audit: 'bank.remove', permission: 'banks.write' },
      schema: {
        operationId: 'removeBank',
        tags,
        summary: 'Remove a bank (maker-checker action bank.remove)',
        description: `${VERSIONED} ${GUARDED}`,
        params: BicParams,
        querystring: BankChangeQuery,
        response: { 204: { type: 'null', description: 'Removed' }, ...PROPOSED, ...errorResponses },
      },
    },
    async (request, reply) => {
      const input = { bic: request.params.bic, ...changeOptions(request.query) };
      const submitted = await gateway.admin.approvals.submit<BankListOutcome>('bank.remove', input, request.requestContext);
      if ('proposal' in submitted) return answerSubmitted(reply, submitted);
      return reply.code(204).header('x-bank-list-version', String(submitted.applied.version)).send(null);
    },
  );
  app.get(
    ADMIN_BANK_EXPORT_PATH,
    {
      config: { permission: 'read' },
      schema: {
        operationId: 'exportBanks',
        tags,
        summary: "The published list's curated fields as CSV, for a spreadsheet (import it back with mode=curate)",
        description:
          'Columns bic, name, nameEn, sbpMemberId, one bank per line in the partners\' order; UTF-8 with a byte-order mark (so Excel reads the Cyrillic names), CRLF line ends, empty cells for unset fields, a cell a spreadsheet would run as a formula prefixed with an apostrophe (dropped again on import). ' +
          'The `x-bank-list-version` header names the version exported: pass it as `baseVersion` to the import to apply the edits only if nobody changed the list since.',
        querystring: BankExportQuery,
        produces: ['text/csv'],
        response: { 200: { type: 'string', description: 'The CSV file' }, ...errorResponses },
      },
    },
    async (request, reply) => {
      const file = await banks.exportCsv(request.query.separator);
      return reply
        .header('content-type', 'text/csv; charset=utf-8')
        .header('content-disposition', `attachment; filename="${file.fileName}"`)
        .header('x-bank-list-version', String(file.version))
        .send(file.text);
    },
  );
  // A whole Bank of Russia directory is under 1 MiB; BANKS_IMPORT_MAX_BYTES (4 MiB) leaves room for growth.
  const importBodyLimit = gateway.config.BANKS_IMPORT_MAX_BYTES;
  await app.register(async (importScope) => {
    // The file is the body, read as bytes whatever its type; the importer picks the format by Content-Type.
    importScope.removeAllContentTypeParsers();
    importScope.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: importBodyLimit }, (_request, body, done) => done(null, body));
    // A file past the limit is worded as the import's own 413 (naming the limit); the parent handler answers it.
    importScope.setErrorHandler((error: Error & { code?: string }) => {
      throw error.code === 'FST_ERR_CTP_BODY_TOO_LARGE' ? errors.importTooLarge(importBodyLimit) : error;
    });
    // The body is the file's bytes (no schema types it); the query is typed by its schema's contract type.
    importScope.post<{ Querystring: ImportQuery }>(
      ADMIN_BANK_IMPORT_PATH,
      {
        config: { audit: 'banks.import', permission: 'banks.write' },
        bodyLimit: importBodyLimit,
        schema: {
          operationId: 'importBanks',
          tags,
          summary: 'Import a JSON, CSV or ED807 file (Content-Type names the format), merged by default; dryRun=true previews every change',
          description:
            'merge (the default): an ED807 directory adds new SBP head offices at the end, updates registry facts and removes banks that left SBP, never changing a curated field of a bank that stays; ' +
            'a JSON or CSV file sets the curated fields it has and adds new banks at the end (maker-checker action banks.import). ' +
            'mode=curate (the CSV round trip with GET /admin/v1/banks/export): a JSON or CSV file sets the curated fields of the banks already listed, each changed field shown; rows of other BICs are listed in `unknown` and never added (maker-checker action banks.import). ' +
            'A CSV file may be separated by `,` or `;` (read from its header line), start with a BOM and end its lines with CRLF; a BIC or member id a spreadsheet turned into a number (a lost leading zero, 1E+11) is refused with its line. mode=replace&confirm=true replaces the whole list (maker-checker action banks.replace). ' +
            `${VERSIONED} ${GUARDED}`,
          querystring: ImportQuery,
          consumes: [...IMPORT_MEDIA_TYPES],
          // Documented, not validated: the file is read as bytes and checked, row by row, by the importer.
          body: { description: 'The file: a JSON list, a CSV with bic and name columns, or a Bank of Russia ED807 directory' },
          response: { 200: ImportReport, ...PROPOSED, ...errorResponses },
        },
      },
      async (request, reply) => {
        const body = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
        const query = request.query;
        const mode = query.mode ?? 'merge';
        const options = { ...changeOptions(query), ...(query.fileName ? { fileName: query.fileName } : {}) };
        const contentType = request.headers['content-type'];
        // A change (not a preview, not an unconfirmed replace) goes to maker-checker with the file as a proposal keeps it.
        const submitted = () => ({ file: { base64: body.toString('base64'), contentType, ...(query.fileName ? { fileName: query.fileName } : {}) }, ...changeOptions(query) });
        if (mode === 'replace' && query.dryRun !== 'true' && query.confirm === 'true') {
          request.requestContext.audit.action = 'banks.replace';
          return answerSubmitted(reply, await gateway.admin.approvals.submit('banks.replace', submitted(), request.requestContext));
        }
        if (mode !== 'replace' && query.dryRun !== 'true') {
          return answerSubmitted(reply, await gateway.admin.approvals.submit('banks.import', { ...submitted(), ...(mode === 'curate' ? { mode } : {}) }, request.requestContext));
        }
        const report = await banks.importFile(body, contentType, request.requestContext, { ...options, mode, dryRun: query.dryRun === 'true', confirm: query.confirm === 'true' });
        request.requestContext.audit.details = { mode, dryRun: query.dryRun === 'true', received: report.received, version: report.version, added: report.added, changed: report.changed, removed: report.removed };
        return report;
      },
    );
  });
}
