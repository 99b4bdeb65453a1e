import {
  AdminBank,
  AdminBankList,
  BankChanges,
  BankInput,
  BicParams,
  ImportQuery,
  ImportReport,
  ReplaceBanksBody,
} from '@partner-gateway/contract/admin-banks';
import { ErrorBody } from '@partner-gateway/contract/error-body';
import { ADMIN_BANK_IMPORT_PATH, ADMIN_BANKS_PATH } from '@partner-gateway/contract/paths';
import { IMPORT_MEDIA_TYPES } from '@partner-gateway/contract/import-media-types';
import type { FastifyInstance } from 'fastify';
import type { Gateway } from '../../../gateway.js';

const errorResponses = { '4xx': ErrorBody, '5xx': ErrorBody };
const tags = ['Banks'];

/** Import files may be a whole Bank of Russia directory (about 1 MB); 32 MiB leaves room for growth. */
const IMPORT_BODY_LIMIT = 32 * 1024 * 1024;

/**
 * The bank registry: list, replace, add, remove, and import from a JSON, CSV or ED807 file. A body the schema
 * refuses is answered in the bank checks' words (`refusal`: every bad entry, duplicates included); the schema's
 * own list when they find nothing wrong (it is the stricter: no padding to trim, for one).
 */
export async function adminBankRoutes(app: FastifyInstance, { gateway }: { gateway: Gateway }): Promise<void> {
  const banks = gateway.admin.banks;
  app.get(ADMIN_BANKS_PATH, { config: { permission: 'read' }, schema: { operationId: 'listAdminBanks', tags, summary: 'The bank list, in the order partners receive it', response: { 200: AdminBankList, ...errorResponses } } }, async () => ({
    banks: await banks.list(),
  }));
  app.put(
    ADMIN_BANKS_PATH,
    { config: { audit: 'banks.replace', permission: 'banks.write' }, attachValidation: true, schema: { operationId: 'replaceBanks', tags, summary: 'Replace the whole list (all or nothing)', body: ReplaceBanksBody, response: { 200: BankChanges, ...errorResponses } } },
    async (request) => {
      if (request.validationError) throw banks.refusal(request.body, 'list') ?? request.validationError;
      const changes = await banks.replaceAll(request.body);
      request.requestContext.audit.details = { ...changes };
      return changes;
    },
  );
  app.post(
    ADMIN_BANKS_PATH,
    { config: { audit: 'bank.add', permission: 'banks.write' }, attachValidation: true, schema: { operationId: 'addBank', tags, summary: 'Add a bank at the end of the list', body: BankInput, response: { 201: AdminBank, ...errorResponses } } },
    async (request, reply) => {
      if (request.validationError) throw banks.refusal(request.body, 'one') ?? request.validationError;
      const bank = await banks.add(request.body);
      request.requestContext.audit.details = { after: { bic: bank.bic, name: bank.name, nameEn: bank.nameEn, sbpMemberId: bank.sbpMemberId } };
      return reply.code(201).send(bank);
    },
  );
  app.delete(
    `${ADMIN_BANKS_PATH}/:bic`,
    { config: { audit: 'bank.remove', permission: 'banks.write' }, schema: { operationId: 'removeBank', tags, summary: 'Remove a bank', params: BicParams, response: { 204: { type: 'null', description: 'Removed' }, ...errorResponses } } },
    async (request, reply) => {
      const { bic } = request.params as BicParams;
      await banks.remove(bic);
      request.requestContext.audit.details = { bic };
      return reply.code(204).send();
    },
  );
  await app.register(async (importScope) => {
    // The file is the body, read as bytes whatever its type; the importer picks the format by Content-Type.
    importScope.removeAllContentTypeParsers();
    importScope.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: IMPORT_BODY_LIMIT }, (_request, body, done) => done(null, body));
    importScope.post(
      ADMIN_BANK_IMPORT_PATH,
      {
        config: { audit: 'banks.import', permission: 'banks.write' },
        bodyLimit: IMPORT_BODY_LIMIT,
        schema: {
          operationId: 'importBanks',
          tags,
          summary: 'Import a JSON, CSV or ED807 file (Content-Type names the format); dryRun=true only reports',
          querystring: ImportQuery,
          consumes: [...IMPORT_MEDIA_TYPES],
          // Documented, not validated: the file is read as bytes and checked, row by row, by the importer.
          body: { description: 'The file: a JSON list, a CSV with bic and name columns, or a Bank of Russia ED807 directory' },
          response: { 200: ImportReport, ...errorResponses },
        },
      },
      async (request) => {
        const body = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
        const query = request.query as ImportQuery;
        const mode = query.mode ?? 'replace';
        if (query.dryRun === 'true') {
          const preview = await banks.previewImport(body, request.headers['content-type'], mode);
          request.requestContext.audit.details = { mode, dryRun: true, received: preview.received };
          return preview;
        }
        const report = await banks.importFile(body, request.headers['content-type'], mode);
        request.requestContext.audit.details = { mode, ...report };
        return report;
      },
    );
  });
}
