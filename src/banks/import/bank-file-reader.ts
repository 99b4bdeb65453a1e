import { extname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { AppError, errors } from '../../errors.js';
import type { RegistryReading } from '../sync/read-registry-source.js';
import type { BankFileAnswer, BankFileTask } from './bank-file-worker.js';
import type { ImportFile } from './read-import-file.js';
import type { ParticipantEntry } from '@partner-gateway/contract/admin-bank-participants';

/** A worker's heap: the real directory (0.85 MB) reads in about 40 MB; a 4 MiB file of tiny elements needs more, and is refused. */
const WORKER_HEAP_MB = 128;
/** How long reading one file may take in its worker. */
const WORKER_TIME_MS = 30_000;
/** Files read at once; more get 503 busy (each reading holds a worker's heap beside the gateway's). */
const MAX_READINGS = 2;

export interface BankFileLimits {
  /** BANKS_IMPORT_MAX_BYTES: the largest file, and the most a registry ZIP may unpack to. */
  maxBytes: number;
  /** A worker's heap, in MiB (WORKER_HEAP_MB unless a test asks for less). */
  workerHeapMb?: number;
  /** How long one reading may take, in ms (WORKER_TIME_MS unless a test asks for less). */
  workerTimeMs?: number;
}

/**
 * Reads bank files off the serving thread: each in a worker thread of its own with a heap limit and a time limit,
 * so that no file (half a million bad rows, two million tiny XML elements, a ZIP bomb) can stop the gateway or
 * hold up the requests it serves. A worker that runs out of memory or time is a 422 `import_too_demanding`; the
 * catalogue errors a file is refused with (415, 422 with its first 100 problems) come back as they were thrown.
 *
 * @example
 * ```ts
 * const reader = createBankFileReader({ maxBytes: 4 * 1024 * 1024 });
 * const file = await reader.importFile(bytes, 'text/csv'); // { kind: 'file', rows: [...], received: 12 }
 * ```
 */
export interface BankFileReader {
  /** An import file read and checked (readImportFile); throws its 413, 415 or 422. */
  importFile(bytes: Uint8Array, contentType: string | undefined): Promise<ImportFile>;
  /** A registry source read (readRegistrySource): its entries, or why it is unusable in words; never throws for the file's sake. */
  registrySource(bytes: Uint8Array): Promise<RegistryReading>;
  /** The settlement bank's B2C participant list read and checked (readParticipants); throws its 413, 415 or 422. */
  participants(bytes: Uint8Array, contentType: string | undefined): Promise<ParticipantEntry[]>;
}

export function createBankFileReader(limits: BankFileLimits): BankFileReader {
  let running = 0;
  const workers = createWorkerPool(limits.workerHeapMb ?? WORKER_HEAP_MB, limits.workerTimeMs ?? WORKER_TIME_MS);
  async function inWorker<T>(task: BankFileTask): Promise<T> {
    if (running >= MAX_READINGS) throw errors.busy();
    running++;
    try {
      const answer = await workers.run(task);
      if (answer.ok) return answer.value as T;
      throw new AppError(answer.error.code, answer.error.status, answer.error.description, answer.error.extra);
    } finally {
      running--;
    }
  }
  return {
    importFile(bytes, contentType) {
      if (bytes.length > limits.maxBytes) return Promise.reject(errors.importTooLarge(limits.maxBytes));
      return inWorker<ImportFile>({ task: 'import', bytes, contentType });
    },
    participants(bytes, contentType) {
      if (bytes.length > limits.maxBytes) return Promise.reject(errors.importTooLarge(limits.maxBytes));
      return inWorker<ParticipantEntry[]>({ task: 'participants', bytes, contentType });
    },
    async registrySource(bytes) {
      if (bytes.length > limits.maxBytes) return { problem: `the source is larger than ${limits.maxBytes} bytes (BANKS_IMPORT_MAX_BYTES)` };
      try {
        return await inWorker<RegistryReading>({ task: 'registry', bytes, maxBytes: limits.maxBytes });
      } catch (error) {
        if (error instanceof AppError && error.code === 'import_too_demanding') return { problem: `the source could not be read: ${error.description}` };
        throw error;
      }
    },
  };
}

/** The worker's file beside this one, as built (`.js`) or run from source (`.ts`, under tsx). */
const workerFile = new URL(`./bank-file-worker${extname(fileURLToPath(import.meta.url))}`, import.meta.url);
/**
 * From source, the worker registers tsx before loading its `.ts` file: Node 20 does not run `--import tsx`'s
 * hooks for a worker's entry point. Built, it is the `.js` file itself.
 */
const workerEntry: [string | URL, { eval?: boolean }] = workerFile.pathname.endsWith('.ts')
  ? [`import('tsx/esm/api').then(({ register }) => { register(); return import(${JSON.stringify(workerFile.href)}); })`, { eval: true }]
  : [workerFile, {}];

/** How long a worker that finished a reading is kept for the next one before it is ended. */
const WORKER_IDLE_MS = 10_000;
/** How long a new worker may take to load its modules (from source, under load, tsx compiling them: seconds). */
const WORKER_START_MS = 60_000;

/**
 * Workers kept between readings: starting one costs tens of milliseconds built (and most of a second from source,
 * where it compiles its modules), and an operator's preview, apply and the sync read files in bursts. A reading's
 * time limit counts from when its worker is ready, not from the worker's start. A worker is
 * reused only after it answered; one that ran out of memory or time, or failed, is ended and never reused. An idle
 * worker holds the process open for nobody and ends after WORKER_IDLE_MS.
 */
function createWorkerPool(heapMb: number, timeMs: number) {
  const idle: Array<{ worker: Worker; timer: NodeJS.Timeout }> = [];
  const forget = (worker: Worker) => {
    const at = idle.findIndex((kept) => kept.worker === worker);
    if (at >= 0) clearTimeout(idle.splice(at, 1)[0]!.timer);
  };
  const start = () => {
    const worker = new Worker(workerEntry[0], {
      ...workerEntry[1],
      resourceLimits: { maxOldGenerationSizeMb: heapMb, maxYoungGenerationSizeMb: 16, stackSizeMb: 4 },
      execArgv: [],
      stdout: false,
      stderr: false,
    });
    // Between readings nobody listens: an idle worker that fails or ends is dropped, never handed a task.
    worker.on('error', () => forget(worker)).on('exit', () => forget(worker));
    return worker;
  };
  const keep = (worker: Worker) => {
    worker.unref();
    const timer = setTimeout(() => {
      forget(worker);
      void worker.terminate();
    }, WORKER_IDLE_MS);
    timer.unref();
    idle.push({ worker, timer });
  };
  /** A new worker once it has loaded its modules (its first message): a reading's time starts after that. */
  const started = (worker: Worker) =>
    new Promise<Worker>((resolve, reject) => {
      const stop = () => (clearTimeout(timer), worker.off('message', onReady).off('error', onError).off('exit', onExit));
      const onReady = () => (stop(), resolve(worker));
      const fail = (error: Error) => (stop(), void worker.terminate(), reject(error));
      const onError = (error: Error) => fail(error);
      const onExit = (code: number) => fail(new Error(`the bank file worker ended as it started (exit code ${code})`));
      // A start that never ends is the gateway's fault, not the file's: an error, not import_too_demanding.
      const timer = setTimeout(() => fail(new Error(`the bank file worker did not start within ${WORKER_START_MS / 1000} s`)), WORKER_START_MS);
      worker.once('message', onReady).once('error', onError).once('exit', onExit);
    });
  const take = async (): Promise<Worker> => {
    const kept = idle.pop();
    if (!kept) return started(start());
    clearTimeout(kept.timer);
    kept.worker.ref();
    return kept.worker;
  };
  return {
    async run(task: BankFileTask): Promise<BankFileAnswer> {
      const worker = await take();
      return new Promise((resolve, reject) => {
        const tooDemanding = () => errors.importTooDemanding(`the ${heapMb} MiB of memory and ${timeMs / 1000} s its reading may take`);
        const settle = (outcome: () => void, reusable: boolean) => {
          clearTimeout(timer);
          worker.off('message', onMessage).off('error', onError).off('exit', onExit);
          if (reusable) keep(worker);
          else void worker.terminate();
          outcome();
        };
        const onMessage = (answer: BankFileAnswer) => settle(() => resolve(answer), true);
        const onError = (error: Error & { code?: string }) => settle(() => reject(error.code === 'ERR_WORKER_OUT_OF_MEMORY' ? tooDemanding() : error), false);
        const onExit = (code: number) => settle(() => reject(code === 0 ? new Error('the bank file worker ended without an answer') : tooDemanding()), false);
        const timer = setTimeout(() => settle(() => reject(tooDemanding()), false), timeMs);
        worker.once('message', onMessage).once('error', onError).once('exit', onExit);
        worker.postMessage(task);
      });
    },
  };
}
