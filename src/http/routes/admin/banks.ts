import type { FastifyInstance } from 'fastify';
import { Type, type Static } from 'typebox';
import type { Gateway } from '../../../gateway.js';
import { ErrorBody } from '../error-body.js';
import { previewBankImport } from './bank-import-preview.js';

export const AdminBank = Type.Object({
  bic: Type.String(),
  name: Type.String(),
  nameEn: Type.Union([Type.String(), Type.Null()]),
  sbpMemberId: Type.Union([Type.String(), Type.Null()]),
  position: Type.Integer(),
  updatedAt: Type.String({ format: 'date-time' }),
});

/** Entries are checked by the domain so that every bad one is listed with a readable reason. */
const BankInput = Type.Any({ description: '{ bic: 9-digit string starting with 04, name, nameEn?, sbpMemberId? }' });
export const ReplaceBanksBody = Type.Object({ banks: Type.Array(BankInput, { maxItems: 100_000 }) });

export const BankChangesResponse = Type.Object({
  added: Type.Array(Type.String()),
  changed: Type.Array(Type.String()),
  removed: Type.Array(Type.String()),
});

const ImportQuery = Type.Object({
  mode: Type.Optional(Type.Union([Type.Literal('replace'), Type.Literal('merge')])),
  dryRun: Type.Optional(Type.Union([Type.Literal('true'), Type.Literal('false')], { description: 'true: report what the import would do, change nothing' })),
});
const BicParams = Type.Object({ bic: Type.String() });
const errorResponses = { '4xx': ErrorBody, '5xx': ErrorBody };

/** Import files may be a whole Bank of Russia directory (about 1 MB); 32 MiB leaves room for growth. */
const IMPORT_BODY_LIMIT = 32 * 1024 * 1024;

/** The bank registry: list, replace, add, remove, and import from a JSON, CSV or ED807 file. */
export async function adminBankRoutes(app: FastifyInstance, { gateway }: { gateway: Gateway }): Promise<void> {
  const banks = gateway.bankAdmin;
  app.get('/admin/v1/banks', { schema: { response: { 200: Type.Object({ banks: Type.Array(AdminBank) }), ...errorResponses } } }, async () => ({
    banks: await banks.list(),
  }));
  app.put('/admin/v1/banks', { config: { audit: 'banks.replace' }, schema: { body: ReplaceBanksBody, response: { 200: BankChangesResponse, ...errorResponses } } }, async (request) => {
    const changes = await banks.replaceAll(request.body);
    request.auditDetails = { ...changes };
    return changes;
  });
  app.post('/admin/v1/banks', { config: { audit: 'bank.add' }, schema: { body: BankInput, response: { 201: AdminBank, ...errorResponses } } }, async (request, reply) => {
    const bank = await banks.add(request.body);
    request.auditDetails = { after: { bic: bank.bic, name: bank.name, nameEn: bank.nameEn, sbpMemberId: bank.sbpMemberId } };
    reply.code(201);
    return bank;
  });
  app.delete('/admin/v1/banks/:bic', { config: { audit: 'bank.remove' }, schema: { params: BicParams, response: errorResponses } }, async (request, reply) => {
    const { bic } = request.params as Static<typeof BicParams>;
    await banks.remove(bic);
    request.auditDetails = { bic };
    return reply.code(204).send();
  });
  await app.register(async (importScope) => {
    // The file is the body, read as bytes whatever its type; the importer picks the format by Content-Type.
    importScope.removeAllContentTypeParsers();
    importScope.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: IMPORT_BODY_LIMIT }, (_request, body, done) => done(null, body));
    importScope.post(
      '/admin/v1/banks/import',
      {
        config: { audit: 'banks.import' },
        bodyLimit: IMPORT_BODY_LIMIT,
        schema: {
          querystring: ImportQuery,
          response: { 200: Type.Object({ received: Type.Integer(), ...BankChangesResponse.properties }), ...errorResponses },
        },
      },
      async (request) => {
        const body = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
        const query = request.query as Static<typeof ImportQuery>;
        const mode = query.mode ?? 'replace';
        if (query.dryRun === 'true') {
          const preview = previewBankImport(body, request.headers['content-type'], mode, await banks.list());
          request.auditDetails = { mode, dryRun: true, received: preview.received };
          return preview;
        }
        const report = await banks.importFile(body, request.headers['content-type'], mode);
        request.auditDetails = { mode, ...report };
        return report;
      },
    );
  });
}
