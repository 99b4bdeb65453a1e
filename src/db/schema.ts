import type { ColumnType, Generated } from 'kysely';

/**
 * The database as Kysely sees it. Table and column names match the migrations in `./migrations`;
 * repositories translate rows into the plain domain objects the rest of the code uses.
 */
export interface Database {
  partners: PartnersTable;
  banks: BanksTable;
  crypto_keys: CryptoKeysTable;
  jwe_replay: JweReplayTable;
}

type Timestamp = ColumnType<Date, Date | string | undefined, Date | string>;
/** jsonb columns are written as JSON text (pg and PGlite both parse them back on read). */
type Json<T> = ColumnType<T, string, string>;

export interface PartnersTable {
  id: string;
  login: string;
  password_hash: string;
  status: 'active' | 'blocked';
  ip_allowlist: Json<string[]>;
  reward_types: Json<string[]>;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface BanksTable {
  bic: string;
  name: string;
  name_en: string | null;
  sbp_member_id: string | null;
  position: number;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface CryptoKeysTable {
  kid: string;
  use: 'sig' | 'enc';
  alg: string;
  public_jwk: Json<Record<string, unknown>>;
  private_jwk: Json<Record<string, unknown>>;
  created_at: Timestamp;
  retired_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
  id: Generated<number>;
}

export interface JweReplayTable {
  jti: string;
  expires_at: Timestamp;
}
