import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { projectFile } from '../../src/project-root.js';
import type { LoadResult, LoadSpec } from '../load.js';

/** Load processes still running, killed when this process exits (a failed bench leaves nothing behind). */
const running = new Set<ChildProcess>();
process.once('exit', () => {
  for (const child of running) child.kill('SIGKILL');
});

/**
 * One autocannon run (bench/load.ts) in a process of its own, so that the load generator never shares an
 * event loop with the process measured or with the bench itself; resolves with its result line.
 */
export function runLoad(spec: LoadSpec): Promise<LoadResult> {
  const child = spawn(process.execPath, ['--import', 'tsx', projectFile('bench/load.ts'), JSON.stringify(spec)], { stdio: ['ignore', 'pipe', 'inherit'] });
  running.add(child);
  return new Promise((resolve, reject) => {
    let output = '';
    child.stdout!.on('data', (chunk) => (output += String(chunk)));
    child.once('exit', (code) => {
      running.delete(child);
      const line = output.split('\n').find((text) => text.startsWith('{'));
      if (code === 0 && line) resolve(JSON.parse(line) as LoadResult);
      else reject(new Error(`a load process exited with ${code}`));
    });
  });
}

/** Responses the load generator got, whatever their status (socket errors and timeouts are not answers). */
export const answered = (result: LoadResult): number => Object.values(result.statuses).reduce((sum, count) => sum + count, 0);

const status = (pid: number) => readFileSync(`/proc/${pid}/status`, 'utf8');

/** Resident memory of a process now (VmRSS) and at its peak (VmHWM), in MB. */
export function rssMb(pid: number): { now: number; peak: number } {
  const text = status(pid);
  const read = (name: string) => Math.round(Number(new RegExp(`${name}:\\s+(\\d+)`).exec(text)?.[1] ?? 0) / 1024);
  return { now: read('VmRSS'), peak: read('VmHWM') };
}

/** Resets a process's peak RSS to its current RSS, so that the next peak is one scenario's. */
export function resetPeakRss(pid: number): void {
  try {
    writeFileSync(`/proc/${pid}/clear_refs`, '5');
  } catch {
    // Not permitted here: the peak then covers the whole run so far, an upper bound.
  }
}

/**
 * CPU time a process has used so far (user + system, ms; Linux clock ticks of 10 ms). Divided by the calls
 * answered in between, it is a cost per call that another engineer's build on the same cores hardly moves,
 * unlike requests per second: the figure to compare two builds with on a shared machine.
 */
export function cpuMs(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  // Fields after the command name (which may hold spaces) in parentheses: utime and stime are 14th and 15th.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

/** CPU µs per answered call, from the `ms` of CPU spent on `result`'s load; undefined when none was answered. */
export const perCall = (ms: number, result: LoadResult): number | undefined => (answered(result) > 0 ? Math.round((ms * 1000) / answered(result)) : undefined);

/**
 * Runs `spec`'s load and measures the CPU process `pid` spent meanwhile: the result, and `{ cpuUsPerCall }` to
 * spread into its row (empty when no call was answered).
 */
export async function runLoadWithCpu(pid: number, spec: LoadSpec): Promise<[LoadResult, { cpuUsPerCall?: number }]> {
  const before = cpuMs(pid);
  const result = await runLoad(spec);
  const cpuUsPerCall = perCall(cpuMs(pid) - before, result);
  return [result, cpuUsPerCall === undefined ? {} : { cpuUsPerCall }];
}
