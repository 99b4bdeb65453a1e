import { BANK_ENDPOINTS } from '@partner-gateway/contract/admin-bank-endpoints';
import type { AdminBank } from '@partner-gateway/contract/admin-banks';
import type { BankChangeQuery, BankListOutcome } from '@partner-gateway/contract/admin-bank-versions';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import type { Gateway } from '../../../gateway.js';
import { errors } from '../../../errors.js';
import { routeOf } from './admin-route.js';
import { answerChecked, answerSubmitted } from './answer-submitted.js';

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
  app.route({
    ...routeOf(BANK_ENDPOINTS.list),
    handler: async () => {
      const [version, list] = await Promise.all([banks.currentVersion(), banks.list()]);
      return { version, banks: list };
    },
  });
  app.route({
    ...routeOf(BANK_ENDPOINTS.replace),
    attachValidation: true,
    handler: async (request, reply) => {
      if (request.validationError) throw banks.refusal(request.body, 'list') ?? request.validationError;
      return answerChecked(gateway, BANK_ENDPOINTS.replace, { banks: request.body.banks, ...changeOptions(request.query) }, request, reply);
    },
  });
  app.route({
    ...routeOf(BANK_ENDPOINTS.add),
    attachValidation: true,
    handler: async (request, reply) => {
      if (request.validationError) throw banks.refusal(request.body, 'one') ?? request.validationError;
      const submitted = await gateway.admin.approvals.submit<AddedBank>(BANK_ENDPOINTS.add.checked, { bank: request.body, ...changeOptions(request.query) }, request.requestContext);
      if ('proposal' in submitted) return answerSubmitted(reply, submitted);
      return reply.code(201).header('x-bank-list-version', String(submitted.applied.outcome.version)).send(submitted.applied.bank);
    },
  });
  app.route({
    ...routeOf(BANK_ENDPOINTS.edit),
    handler: async (request, reply) => {
      return answerChecked(gateway, BANK_ENDPOINTS.edit, { bic: request.params.bic, body: request.body, ...changeOptions(request.query) }, request, reply);
    },
  });
  app.route({
    ...routeOf(BANK_ENDPOINTS.remove),
    handler: async (request, reply) => {
      const input = { bic: request.params.bic, ...changeOptions(request.query) };
      const submitted = await gateway.admin.approvals.submit<BankListOutcome>(BANK_ENDPOINTS.remove.checked, input, request.requestContext);
      if ('proposal' in submitted) return answerSubmitted(reply, submitted);
      return reply.code(204).header('x-bank-list-version', String(submitted.applied.version)).send(null);
    },
  });
  app.route({
    ...routeOf(BANK_ENDPOINTS.exportCsv),
    handler: async (request, reply) => {
      const file = await banks.exportCsv(request.query.separator);
      return reply
        .header('content-type', 'text/csv; charset=utf-8')
        .header('content-disposition', `attachment; filename="${file.fileName}"`)
        .header('x-bank-list-version', String(file.version))
        .send(file.text);
    },
  });
  // A whole Bank of Russia directory is under 1 MiB; BANKS_IMPORT_MAX_BYTES (4 MiB) leaves room for growth.
  const importBodyLimit = gateway.config.BANKS_IMPORT_MAX_BYTES;
  await app.register(async (untypedScope) => {
    const importScope = untypedScope.withTypeProvider<TypeBoxTypeProvider>();
    // The file is the body, read as bytes whatever its type; the importer picks the format by Content-Type.
    importScope.removeAllContentTypeParsers();
    importScope.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: importBodyLimit }, (_request, body, done) => done(null, body));
    // A file past the limit is worded as the import's own 413 (naming the limit); the parent handler answers it.
    importScope.setErrorHandler((error: Error & { code?: string }) => {
      throw error.code === 'FST_ERR_CTP_BODY_TOO_LARGE' ? errors.importTooLarge(importBodyLimit) : error;
    });
    importScope.route({
      ...routeOf(BANK_ENDPOINTS.import),
      bodyLimit: importBodyLimit,
      handler: async (request, reply) => {
        // The body is the file's bytes (no schema types it), checked row by row by the importer.
        const body = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
        const query = request.query;
        const mode = query.mode ?? 'merge';
        const options = { ...changeOptions(query), ...(query.fileName ? { fileName: query.fileName } : {}) };
        const contentType = request.headers['content-type'];
        // A change (not a preview, not an unconfirmed replace) goes to maker-checker with the file as a proposal keeps it.
        const submitted = () => ({ file: { base64: body.toString('base64'), contentType, ...(query.fileName ? { fileName: query.fileName } : {}) }, ...changeOptions(query) });
        if (mode === 'replace' && query.dryRun !== 'true' && query.confirm === 'true') {
          // A confirmed replace by file is PUT /admin/v1/banks's change: its action, audited as it.
          request.requestContext.audit.action = BANK_ENDPOINTS.replace.checked;
          return answerChecked(gateway, BANK_ENDPOINTS.replace, submitted(), request, reply);
        }
        if (mode !== 'replace' && query.dryRun !== 'true') {
          return answerChecked(gateway, BANK_ENDPOINTS.import, { ...submitted(), ...(mode === 'curate' ? { mode } : {}) }, request, reply);
        }
        const report = await banks.importFile(body, contentType, request.requestContext, { ...options, mode, dryRun: query.dryRun === 'true', confirm: query.confirm === 'true' });
        request.requestContext.audit.details = { mode, dryRun: query.dryRun === 'true', received: report.received, version: report.version, added: report.added, changed: report.changed, removed: report.removed };
        return report;
      },
    });
  });
}
