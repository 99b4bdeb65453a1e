import { Unzip, UnzipInflate, type UnzipFile } from 'fflate';
import type { ErrorDetail } from '../../errors.js';
import { parseEd807Registry } from '../import/parse-ed807.js';
import type { RegistryEntry } from '../merge-registry.js';

/** The largest directory a source may hold, unpacked: the May 2023 directory is 0.85 MB, so 64 MiB is ample room. */
export const MAX_DIRECTORY_BYTES = 64 * 1024 * 1024;
/** A ZIP is fed to the inflater this much at a time, so that no single step can unpack more than a few MB (a ZIP bomb stops at the limit). */
const ZIP_CHUNK_BYTES = 4096;
const ZIP_MAGIC = [0x50, 0x4b, 0x03, 0x04];

/** A registry source read: its entries and how many SBP head offices it lists, or why it is unusable. */
export type RegistryReading = { entries: RegistryEntry[]; received: number } | { problem: string };

/**
 * Reads what a registry source served: the Bank of Russia's ED807 directory as XML, or the ZIP it publishes
 * holding exactly one XML file. Never throws: a ZIP that is damaged, holds no XML or more than one, unpacks past
 * `maxBytes`, or a document that is not an ED807 directory (or lists no SBP head office) is a problem in words,
 * which the sync records and which changes nothing.
 *
 * @example
 * ```ts
 * const read = readRegistrySource(await readFile('20230518_ED807_full.zip'));
 * if ('entries' in read) mergeRegistry(current, read.entries);
 * else read.problem; // 'the ZIP holds no XML file'
 * ```
 */
export function readRegistrySource(bytes: Uint8Array, maxBytes = MAX_DIRECTORY_BYTES): RegistryReading {
  let xml: Uint8Array;
  if (isZip(bytes)) {
    const unpacked = unzipDirectory(bytes, maxBytes);
    if ('problem' in unpacked) return unpacked;
    xml = unpacked.xml;
  } else {
    xml = bytes;
  }
  const read = parseEd807Registry(xml);
  if ('problems' in read) return { problem: `not a usable ED807 directory: ${describe(read.problems, read.total ?? read.problems.length)}` };
  const received = read.entries.filter((entry) => entry.sbpParticipant).length;
  if (received === 0) return { problem: 'the directory lists no SBP head office' };
  return { entries: read.entries, received };
}

function isZip(bytes: Uint8Array): boolean {
  return ZIP_MAGIC.every((byte, index) => bytes[index] === byte);
}

/** The one XML file of a ZIP, unpacked in bounded steps. */
export function unzipDirectory(bytes: Uint8Array, maxBytes: number): { xml: Uint8Array } | { problem: string } {
  const files: Array<{ name: string; chunks: Uint8Array[]; done: boolean; error?: string }> = [];
  let total = 0;
  let tooLarge = false;
  const unzip = new Unzip((file: UnzipFile) => {
    if (!/\.xml$/i.test(file.name) || file.name.endsWith('/')) return;
    const entry: (typeof files)[number] = { name: file.name, chunks: [], done: false };
    files.push(entry);
    file.ondata = (error, data, final) => {
      if (error) {
        entry.error = error.message;
        return;
      }
      total += data.length;
      if (total > maxBytes) {
        tooLarge = true;
        file.terminate();
        return;
      }
      entry.chunks.push(data);
      if (final) entry.done = true;
    };
    file.start();
  });
  unzip.register(UnzipInflate);
  try {
    for (let offset = 0; offset < bytes.length && !tooLarge; offset += ZIP_CHUNK_BYTES) {
      unzip.push(bytes.subarray(offset, offset + ZIP_CHUNK_BYTES), offset + ZIP_CHUNK_BYTES >= bytes.length);
    }
  } catch (error) {
    return { problem: `not a readable ZIP: ${(error as Error).message}` };
  }
  if (tooLarge) return { problem: `the ZIP unpacks to more than ${maxBytes} bytes` };
  if (files.length === 0) return { problem: 'the ZIP holds no XML file' };
  if (files.length > 1) return { problem: `the ZIP holds ${files.length} XML files (${files.map((file) => file.name).join(', ')}); expected one directory` };
  const [file] = files as [(typeof files)[number]];
  if (file.error !== undefined || !file.done) return { problem: `not a readable ZIP: ${file.error ?? `${file.name} is cut short`}` };
  return { xml: Buffer.concat(file.chunks) };
}

function describe(problems: readonly ErrorDetail[], total: number): string {
  const shown = problems.slice(0, 3).map((problem) => (problem.field ? `${problem.field}: ${problem.message}` : problem.message));
  return total > 3 ? `${shown.join('; ')}; and ${total - 3} more` : shown.join('; ');
}
