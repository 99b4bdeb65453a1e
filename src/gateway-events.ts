/**
 * What a gateway tells the process around it while it runs: failures it survives on its own (a batch retried, a
 * connection re-made, a store fallen back from) and losses an operator must hear of. One sink instead of a
 * callback per component: `src/server.ts` turns each into a log line, rate-limited per type.
 *
 * @example
 * ```ts
 * const gateway = await createGateway(config, handle, { masterKey, events: (event) => logger.warn(event, event.type) });
 * ```
 */
export type GatewayEvent =
  /** A batch of audit entries could not be written yet (they stay queued), or one entry the database refused was dropped (`AuditEntryDroppedError`). */
  | { type: 'audit_write_failed'; error: unknown }
  /** An audit maintenance run (partitions ahead, retention) failed; the next run tries again. */
  | { type: 'audit_maintenance_failed'; error: unknown }
  /** Redis failed and a call fell back to the database. */
  | { type: 'redis_failed'; error: unknown }
  /** The change feed between instances lost its connection (it reconnects by itself). */
  | { type: 'change_feed_failed'; error: unknown }
  /** JWEs (or proofs, assertions) found accepted twice across a Redis failover. */
  | { type: 'replay_conflict'; jtis: string[] }
  /** Replay journal entries dropped because the database could not hold them. */
  | { type: 'replay_journal_dropped'; count: number }
  /** The embedded database's replay cache could not write its table behind (retried at its next turn). */
  | { type: 'replay_write_failed'; error: unknown }
  /**
   * Spent jtis were lost (`scope`: `database` after an unclean shutdown of the embedded database, a PostgreSQL
   * crash or an emptied table; `redis:<prefix>` after a Redis restart): single-use credentials issued before
   * `lostAt` are refused, which matters until `refusedUntil` (ms since the epoch, both).
   */
  | { type: 'replay_state_lost'; scope: string; lostAt: number; refusedUntil: number }
  /** Checking whether a replay store still holds its jtis failed (retried at the next claim). */
  | { type: 'replay_state_check_failed'; error: unknown }
  /** A lockout set in Redis could not be written to the database too: a Redis restart would forget it. */
  | { type: 'lockout_write_failed'; error: unknown }
  /** Operators' last-use times (tokens, sessions) could not be written yet; they stay noted for the next write. */
  | { type: 'operator_usage_write_failed'; error: unknown }
  /** A bank registry sync could not fetch or read its source; nothing changed, the banks keep being served. */
  | { type: 'bank_sync_failed'; source: string; problem: string }
  /** A participant list sync could not fetch or read its list; nothing changed, the banks keep being served. */
  | { type: 'participants_sync_failed'; source: string; problem: string }
  /** A webhook dispatch pass failed (the database, or a bug); due deliveries stay in the outbox for the next pass. */
  | { type: 'webhook_dispatch_failed'; error: unknown }
  /** Shutting down lost something: replay journal entries not written down in time. */
  | { type: 'close_failed'; error: unknown };

/** Where a gateway reports its events. */
export type GatewayEvents = (event: GatewayEvent) => void;
