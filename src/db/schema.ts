import type { ColumnType, Generated } from 'kysely';

/**
 * The tables whose repositories still type their rows by hand, as Kysely sees them (names as the migrations in
 * `./migrations` make them). A table with a field map (partners, banks and the later ones) is typed from its map
 * by its own repository (`withTables`) and is not listed here: one type per table.
 */
export interface Database {
  crypto_keys: CryptoKeysTable;
  jwe_replay: JweReplayTable;
  token_families: TokenFamiliesTable;
  refresh_tokens: RefreshTokensTable;
  auth_throttle: AuthThrottleTable;
  audit_log: AuditLogTable;
}

type Timestamp = ColumnType<Date, Date | string | undefined, Date | string>;
type NullableTimestamp = ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
/** jsonb columns are written as JSON text (pg and PGlite both parse them back on read). */
type Json<T> = ColumnType<T, string, string>;

export interface CryptoKeysTable {
  kid: string;
  use: 'sig' | 'enc';
  alg: string;
  public_jwk: Json<Record<string, unknown>>;
  /** Cleartext private JWK of keys created before sealing existed; sealed and cleared at start. */
  private_jwk: ColumnType<Record<string, unknown> | null, string | null | undefined, string | null>;
  /** The private JWK sealed with AES-256-GCM under MASTER_KEY. */
  private_jwk_sealed: string | null;
  created_at: Timestamp;
  retired_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
  id: Generated<number>;
}

export interface JweReplayTable {
  jti: string;
  expires_at: Timestamp;
}

export interface TokenFamiliesTable {
  id: string;
  partner_id: string;
  generation: number;
  created_at: Timestamp;
  expires_at: Timestamp;
  revoked_at: NullableTimestamp;
  revoked_reason: string | null;
  /** RFC 7638 thumbprint of the DPoP key the family's tokens are bound to; null for bearer families. */
  jkt: ColumnType<string | null, string | null | undefined, string | null>;
}

export interface RefreshTokensTable {
  token_hash: string;
  family_id: string;
  created_at: Timestamp;
  expires_at: Timestamp;
  used_at: NullableTimestamp;
}

export interface AuthThrottleTable {
  key: string;
  failures: number;
  window_started_at: Timestamp;
  lockouts: number;
  locked_until: NullableTimestamp;
  last_failure_at: Timestamp;
  /** Password checks holding a place in the count right now (see migration 0010). */
  in_flight: Generated<number>;
  in_flight_until: NullableTimestamp;
}

export interface AuditLogTable {
  id: Generated<string>;
  at: Timestamp;
  action: string;
  outcome: 'success' | 'failure';
  status: number | null;
  partner: string | null;
  client_address: string | null;
  reason: string | null;
  request_id: string | null;
  details: ColumnType<Record<string, unknown> | null, string | null, string | null>;
  /** The calls the entry stands for: 1, or more for an aggregated entry of successful bearer banks calls. */
  count: ColumnType<number, number | undefined, number>;
  last_request_id: string | null;
  /** Who made an admin change (for an approved proposal, who proposed it): operator id, name and credential kind. */
  operator_id: ColumnType<string | null, string | null | undefined, string | null>;
  operator_name: ColumnType<string | null, string | null | undefined, string | null>;
  operator_credential: ColumnType<string | null, string | null | undefined, string | null>;
  /** Who approved it, for a change made by approving a proposal. */
  approver_id: ColumnType<string | null, string | null | undefined, string | null>;
  approver_name: ColumnType<string | null, string | null | undefined, string | null>;
  approver_credential: ColumnType<string | null, string | null | undefined, string | null>;
  /** The operators a chained personal token was created through (migration 0027), for the operator and the approver. */
  operator_through: ColumnType<string[] | null, string | null | undefined, string | null>;
  approver_through: ColumnType<string[] | null, string | null | undefined, string | null>;
}
