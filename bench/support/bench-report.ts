import type { DatabaseKind } from '../../src/db/database.js';

/** One scenario's line of the table. */
export interface Row {
  /** `ceiling`, or the backend (followed by the build's label when BENCH_MAIN compares several). */
  backend: string;
  scenario: string;
  rps: number;
  p50: number;
  p99: number;
  failed: number;
  peakRssMb?: number;
  /** The gateway's CPU time per answered call (µs), all its threads: robust to other work on the machine. */
  cpuUsPerCall?: number;
  ratio?: number;
  ceiling?: string;
}

/** One goal, met or not, with the figure that decides it. */
export interface Target {
  backend: string;
  target: string;
  met: boolean;
  value: string;
}

/** The search scenario's requests: every filter, a deep cursor page, following, and a page of 100 partners' activity. */
export function searchQueries(auditRows: number): string[] {
  const day = (daysAgo: number) => new Date(Date.now() - daysAgo * 86_400_000).toISOString();
  const middle = String(Math.floor(auditRows / 2));
  const logins = Array.from({ length: 100 }, (_, i) => `bulk-${i * 7 + 1}`).join(',');
  const queries = [
    '/admin/v1/audit?limit=100',
    '/admin/v1/audit?partner=bulk-42&limit=100',
    '/admin/v1/audit?outcome=failure&limit=100',
    '/admin/v1/audit?reason=wrong_password&partner=bulk-50&limit=100',
    '/admin/v1/audit?action=login&limit=100',
    `/admin/v1/audit?from=${day(10)}&to=${day(9)}&limit=100`,
    `/admin/v1/audit?cursor=${middle}&limit=100`,
    `/admin/v1/audit?partner=bulk-7&cursor=${middle}&limit=100`,
    `/admin/v1/audit?after=${middle}&limit=100`,
    `/admin/v1/partner-activity?logins=${logins}`,
  ];
  return queries.map((query) => query.replaceAll(':', '%3A'));
}

/** Prints the table of scenarios and each goal met or not. */
export function printReport(rows: Row[], targets: Target[]): void {
  const pad = (text: string, width: number) => text.padEnd(width);
  console.log(`\n${pad('backend', 9)} ${pad('scenario', 56)} ${pad('req/s', 8)} ${pad('p50 ms', 7)} ${pad('p99 ms', 7)} ${pad('failed', 7)} ${pad('ratio', 12)} ${pad('CPU/call', 9)} peak RSS`);
  for (const row of rows) {
    const ratio = row.ratio === undefined ? '' : `${Math.round(row.ratio * 100)}% of ${row.ceiling}`;
    console.log(
      `${pad(row.backend, 9)} ${pad(row.scenario, 56)} ${pad(String(row.rps), 8)} ${pad(String(row.p50), 7)} ${pad(String(row.p99), 7)} ${pad(String(row.failed), 7)} ${pad(ratio, 12)} ${pad(row.cpuUsPerCall === undefined ? '' : `${row.cpuUsPerCall} µs`, 9)} ${row.peakRssMb === undefined ? '' : `${row.peakRssMb} MB`}`,
    );
  }
  console.log('');
  for (const target of targets) console.log(`${target.met ? 'met    ' : 'NOT MET'} [${target.backend}] ${target.target}: ${target.value}`);
}
