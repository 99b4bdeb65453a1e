import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';

export interface TokenFamily {
  id: string;
  partnerId: string;
  generation: number;
  revokedAt: Date | null;
  /** The thumbprint of the DPoP key its tokens are bound to (RFC 9449 `cnf.jkt`); null for a bearer family. */
  jkt: string | null;
}

/** A new family: its partner, the token generation it is issued under, and its DPoP key, when bound. */
export interface NewTokenFamily {
  id: string;
  partnerId: string;
  generation: number;
  jkt?: string | null;
}

export type SpendResult =
  | { outcome: 'rotated'; family: TokenFamily }
  | { outcome: 'reused'; family: TokenFamily }
  | { outcome: 'unknown' | 'expired' | 'revoked' };

/** A refresh token as stored: its family, until when it could be spent, and when it was (null while unspent). */
export interface StoredRefreshToken {
  family: TokenFamily;
  expiresAt: Date;
  usedAt: Date | null;
}

/**
 * An access-only family (one client-credentials token; RFC 6749 section 4.4.3 issues no refresh token): never
 * stored while it is live, written only when revoked, and kept until `expiresAt` (its token's expiry).
 */
export interface UnstoredTokenFamily {
  partnerId: string;
  generation: number;
  jkt: string | null;
  expiresAt: Date;
}

/**
 * Token families: one per login, holding its refresh tokens (stored only as SHA-256 hashes). A refresh
 * token is spent exactly once; presenting a spent one revokes its whole family (RFC 9700 reuse detection).
 * Client-credentials tokens have access-only families, stored only once revoked (token-family-state.ts).
 */
export interface TokenFamilyRepository {
  start(family: NewTokenFamily, refresh: { hash: string; expiresAt: Date }): Promise<void>;
  /** Spends `hash` and stores `next` in the same family, atomically; a concurrent second spend is a reuse. */
  spend(hash: string, next: { hash: string; expiresAt: Date }, now: Date): Promise<SpendResult>;
  find(id: string): Promise<TokenFamily | undefined>;
  /** The refresh token of SHA-256 `hash` (spent or not) and its family; undefined for a token never issued or already purged. */
  findRefreshToken(hash: string): Promise<StoredRefreshToken | undefined>;
  /**
   * Revokes family `id`. An access-only family (`unstored`) is written revoked, in one statement whichever
   * instance or request got there first, and not at all once its partner is gone (its tokens died with it).
   */
  revoke(id: string, reason: string, unstored?: UnstoredTokenFamily): Promise<void>;
  /** Forgets families whose every refresh token has expired. */
  purgeExpired(now: Date): Promise<number>;
}

export function createTokenFamilyRepository(db: Kysely<Database>): TokenFamilyRepository {
  const toFamily = (row: { id: string; partner_id: string; generation: number; revoked_at: Date | null; jkt: string | null }): TokenFamily => ({
    id: row.id,
    partnerId: row.partner_id,
    generation: row.generation,
    revokedAt: row.revoked_at,
    jkt: row.jkt,
  });
  return {
    async start(family, refresh) {
      // One statement (atomic by itself) rather than a transaction of two: a login pays one round trip, not four.
      await db
        .with('family', (query) =>
          query
            .insertInto('token_families')
            .values({ id: family.id, partner_id: family.partnerId, generation: family.generation, expires_at: refresh.expiresAt, jkt: family.jkt ?? null })
            .returning('id'),
        )
        .insertInto('refresh_tokens')
        .columns(['token_hash', 'family_id', 'expires_at'])
        .expression((eb) =>
          eb.selectFrom('family').select((select) => [select.val(refresh.hash).as('token_hash'), 'family.id as family_id', select.val(refresh.expiresAt).as('expires_at')]),
        )
        .execute();
    },
    async spend(hash, next, now) {
      return db.transaction().execute(async (trx) => {
        const row = await trx
          .selectFrom('refresh_tokens')
          .innerJoin('token_families', 'token_families.id', 'refresh_tokens.family_id')
          .select([
            'token_families.id',
            'token_families.partner_id',
            'token_families.generation',
            'token_families.revoked_at',
            'token_families.jkt',
            'refresh_tokens.used_at',
            'refresh_tokens.expires_at',
          ])
          .where('refresh_tokens.token_hash', '=', hash)
          .forUpdate()
          .executeTakeFirst();
        if (!row) return { outcome: 'unknown' as const };
        const family = toFamily(row);
        if (row.revoked_at) return { outcome: 'revoked' as const };
        if (row.used_at) {
          await trx.updateTable('token_families').set({ revoked_at: now, revoked_reason: 'refresh_token_reuse' }).where('id', '=', family.id).execute();
          return { outcome: 'reused' as const, family };
        }
        if (row.expires_at <= now) return { outcome: 'expired' as const };
        await trx.updateTable('refresh_tokens').set({ used_at: now }).where('token_hash', '=', hash).execute();
        await trx.insertInto('refresh_tokens').values({ token_hash: next.hash, family_id: family.id, expires_at: next.expiresAt }).execute();
        await trx.updateTable('token_families').set({ expires_at: next.expiresAt }).where('id', '=', family.id).execute();
        return { outcome: 'rotated' as const, family };
      });
    },
    async find(id) {
      const row = await db.selectFrom('token_families').select(['id', 'partner_id', 'generation', 'revoked_at', 'jkt']).where('id', '=', id).executeTakeFirst();
      return row && toFamily(row);
    },
    async findRefreshToken(hash) {
      const row = await db
        .selectFrom('refresh_tokens')
        .innerJoin('token_families', 'token_families.id', 'refresh_tokens.family_id')
        .select(['token_families.id', 'token_families.partner_id', 'token_families.generation', 'token_families.revoked_at', 'token_families.jkt', 'refresh_tokens.used_at', 'refresh_tokens.expires_at'])
        .where('refresh_tokens.token_hash', '=', hash)
        .executeTakeFirst();
      return row && { family: toFamily(row), expiresAt: row.expires_at, usedAt: row.used_at };
    },
    async revoke(id, reason, unstored) {
      if (unstored) {
        const revokedAt = new Date();
        // The one column of partners this repository reads (the partners repository's field map types the rest).
        await db
          .withTables<{ partners: { id: string } }>()
          .insertInto('token_families')
          .columns(['id', 'partner_id', 'generation', 'expires_at', 'jkt', 'revoked_at', 'revoked_reason'])
          .expression((eb) =>
            eb
              .selectFrom('partners')
              .select((select) => [
                select.val(id).as('id'),
                'partners.id as partner_id',
                select.val(unstored.generation).as('generation'),
                select.val(unstored.expiresAt).as('expires_at'),
                select.val(unstored.jkt).as('jkt'),
                select.val(revokedAt).as('revoked_at'),
                select.val(reason).as('revoked_reason'),
              ])
              .where('partners.id', '=', unstored.partnerId),
          )
          .onConflict((conflict) => conflict.column('id').doNothing())
          .execute();
        return;
      }
      await db.updateTable('token_families').set({ revoked_at: new Date(), revoked_reason: reason }).where('id', '=', id).where('revoked_at', 'is', null).execute();
    },
    async purgeExpired(now) {
      const rows = await db.deleteFrom('token_families').where('expires_at', '<', now).returning('id').execute();
      return rows.length;
    },
  };
}
