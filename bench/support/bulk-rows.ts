import { sql, type Kysely } from 'kysely';
import { createPartition, dayStart, DAY_MS } from '../../src/db/audit-partitions.js';
import type { DatabaseKind } from '../../src/db/database.js';
import type { Database } from '../../src/db/schema.js';
import { hashPassword } from '../../src/partners/password-hasher.js';

/** `count` partners bulk-1 ... bulk-<count>, loopback-only, all with one password hash (hashing 100 000 would take minutes). */
export async function insertPartners(db: Kysely<Database>, count: number, password: string): Promise<void> {
  await sql`insert into partners (id, login, password_hash, status, ip_allowlist, reward_types)
    select gen_random_uuid(), 'bulk-' || g, ${await hashPassword(password)}, 'active', '["127.0.0.1/32"]'::jsonb, '["sbp"]'::jsonb
    from generate_series(1, ${count}) g`.execute(db);
  // Vacuumed as well as analyzed, as an operator would after a bulk load: otherwise PostgreSQL's autovacuum
  // (its insert threshold) may pick the table up during the measurement that follows, on the same two cores.
  await sql`vacuum (analyze) partners`.execute(db);
}

/**
 * `count` audit entries spread evenly over the `days` days before now, written as the gateway would have
 * (day partitions made first on PostgreSQL): banks calls of the partners bulk-1 ... bulk-1000, one in 50 a
 * failure (wrong_password), one in 20 a login. Loaded a million rows per statement.
 */
export async function insertAuditRows(db: Kysely<Database>, kind: DatabaseKind, count: number, days = 30, onProgress?: (done: number) => void): Promise<void> {
  if (kind === 'postgres') {
    for (let day = dayStart(Date.now() - days * DAY_MS); day <= Date.now(); day += DAY_MS) {
      await db.transaction().execute((trx) => createPartition(trx, day));
    }
  }
  const chunk = 1_000_000;
  for (let done = 0; done < count; done += chunk) {
    const low = done + 1;
    const high = Math.min(count, done + chunk);
    // Oldest first, so that ids grow with time as they do when the gateway writes them.
    await sql`insert into audit_log (at, action, outcome, status, partner, client_address, reason, request_id)
      select now() - make_interval(secs => ((${count} - g)::float8 / ${count}) * ${days} * 86400),
        case when g % 20 = 0 then 'login' else 'banks' end,
        case when g % 50 = 0 then 'failure' else 'success' end, case when g % 50 = 0 then 401 else 200 end,
        'bulk-' || (g % 1000 + 1), '127.0.0.1', case when g % 50 = 0 then 'wrong_password' end, 'bulk-req-' || g
      from generate_series(${low}::bigint, ${high}::bigint) g`.execute(db);
    onProgress?.(high);
  }
  // What the gateway's appends keep: each partner's newest successful call, for the partner activity.
  await sql`insert into partner_last_call (partner, id, at, action)
    select distinct on (partner) partner, id, at, action from audit_log
    where partner like 'bulk-%' and outcome = 'success' and action in ('login', 'refresh', 'logout', 'banks')
    order by partner, at desc, id desc
    on conflict (partner) do update set id = excluded.id, at = excluded.at, action = excluded.action`.execute(db);
  await sql`analyze audit_log`.execute(db);
}
