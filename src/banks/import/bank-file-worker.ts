import { parentPort } from 'node:worker_threads';
import { AppError } from '../../errors.js';
import { readRegistrySource } from '../sync/read-registry-source.js';
import { readImportFile } from './read-import-file.js';
import { readParticipants } from '../participants/read-participants.js';

/** What the reader asks of a worker: an import file read and checked, a registry source read (ZIP or XML), or a participant list read and checked. */
export type BankFileTask =
  | { task: 'import'; bytes: Uint8Array; contentType: string | undefined }
  | { task: 'registry'; bytes: Uint8Array; maxBytes: number }
  | { task: 'participants'; bytes: Uint8Array; contentType: string | undefined };

/** What a worker answers: the reading, or the catalogue error it refused the file with, field by field. */
export type BankFileAnswer =
  | { ok: true; value: unknown }
  | { ok: false; error: { code: string; status: number; description: string; extra: AppError['extra'] } };

/**
 * The worker thread that reads a bank file (see createBankFileReader): parsing a file is the one step whose time
 * and memory the file decides, so it runs here, under the worker's own resource limits, and the serving thread
 * only waits for the answer. A worker answers one task after another (the reader keeps it between readings).
 */
function answer(task: BankFileTask): BankFileAnswer {
  try {
    const value =
      task.task === 'import'
        ? readImportFile(task.bytes, task.contentType)
        : task.task === 'participants'
          ? readParticipants(task.bytes, task.contentType)
          : readRegistrySource(task.bytes, task.maxBytes);
    return { ok: true, value };
  } catch (error) {
    if (error instanceof AppError) return { ok: false, error: { code: error.code, status: error.status, description: error.description, extra: error.extra } };
    throw error;
  }
}

// Ready (its modules loaded), then one reading at a time: the reader posts the next task only after this one's answer.
parentPort?.on('message', (task: BankFileTask) => parentPort?.postMessage(answer(task)));
parentPort?.postMessage('ready');
