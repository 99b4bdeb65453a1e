import { Type, type Static } from 'typebox';
import { BANK_NAME_EN_PATTERN, BANK_NAME_MAX_LENGTH, BANK_NAME_PATTERN, BIC_PATTERN, SBP_MEMBER_ID_PATTERN } from './patterns.js';

/** The admin API's bank registry shapes. */

/** A bank as the admin API shows it, in the order partners receive the list. */
export const AdminBank = Type.Object({
  bic: Type.String({ pattern: BIC_PATTERN }),
  name: Type.String(),
  nameEn: Type.Union([Type.String(), Type.Null()]),
  sbpMemberId: Type.Union([Type.String(), Type.Null()]),
  position: Type.Integer(),
  updatedAt: Type.String({ format: 'date-time' }),
});
export type AdminBank = Static<typeof AdminBank>;

export const AdminBankList = Type.Object({ banks: Type.Array(AdminBank) });
export type AdminBankList = Static<typeof AdminBankList>;

/**
 * A bank to add or to put in a list. The schema says what the registry accepts; a body it refuses is worded by
 * the bank checks (src/banks/bank.ts), so that every bad entry of a list, duplicated BICs included, is reported
 * with a readable reason in one 422.
 */
export const BankInput = Type.Object({
  bic: Type.String({ pattern: BIC_PATTERN, description: 'Bank of Russia BIC: 9 digits starting with 04, as a string' }),
  name: Type.String({ maxLength: BANK_NAME_MAX_LENGTH, pattern: BANK_NAME_PATTERN, description: 'The name partners receive: not blank, no control characters' }),
  nameEn: Type.Optional(Type.Union([Type.String({ maxLength: BANK_NAME_MAX_LENGTH, pattern: BANK_NAME_EN_PATTERN }), Type.Null()])),
  sbpMemberId: Type.Optional(Type.Union([Type.String({ pattern: SBP_MEMBER_ID_PATTERN, description: '12 digits' }), Type.Null()])),
});
export type BankInput = Static<typeof BankInput>;

/** PUT /admin/v1/banks body: the whole list, in order, each BIC once. */
export const ReplaceBanksBody = Type.Object({ banks: Type.Array(BankInput, { maxItems: 100_000, description: 'Each BIC at most once' }) });
export type ReplaceBanksBody = Static<typeof ReplaceBanksBody>;

/** What a change of the list did (or, previewed, would do): BICs added, changed and removed. */
export const BankChanges = Type.Object({
  added: Type.Array(Type.String()),
  changed: Type.Array(Type.String()),
  removed: Type.Array(Type.String()),
});
export type BankChanges = Static<typeof BankChanges>;

export const ImportMode = Type.Union([Type.Literal('replace'), Type.Literal('merge')]);
export type ImportMode = Static<typeof ImportMode>;

/** POST /admin/v1/banks/import query; the body is the file, its format named by Content-Type. */
export const ImportQuery = Type.Object({
  mode: Type.Optional(ImportMode),
  dryRun: Type.Optional(Type.Union([Type.Literal('true'), Type.Literal('false')], { description: 'true: report what the import would do, change nothing' })),
});
export type ImportQuery = Static<typeof ImportQuery>;

/** What an import did or would do, and how many banks the file held. */
export const ImportReport = Type.Object({ received: Type.Integer(), ...BankChanges.properties });
export type ImportReport = Static<typeof ImportReport>;

export const BicParams = Type.Object({ bic: Type.String({ pattern: BIC_PATTERN }) });
export type BicParams = Static<typeof BicParams>;
