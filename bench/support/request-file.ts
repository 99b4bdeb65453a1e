import { closeSync, createWriteStream, openSync, readSync } from 'node:fs';
import { once } from 'node:events';

/**
 * The most single-use requests (client assertions, DPoP proofs, JWEs) a second a scenario prepares for:
 * 20 000, four times the fastest of those scenarios on our two cores (DPoP banks calls, some 5 000 a second;
 * each costs the gateway a signature check or an RSA decryption). Sized from a fast machine's bearer rate
 * (200 000 a second is in sight) they would be millions of signatures, gigabytes of file and minutes of
 * preparation; a gateway faster than this spends the file before the scenario's time is up, and the run ends
 * there (`singleUse`), its rate measured over the time it took.
 */
export const MAX_PREPARED_RATE = 20_000;

/** The single-use requests to prepare for `seconds` at an expected `rate`: a fifth more, up to `MAX_PREPARED_RATE`, and at least 5 000. */
export function preparedCount(rate: number, seconds: number): number {
  return Math.max(5_000, Math.round(Math.min(rate, MAX_PREPARED_RATE) * seconds * 1.2));
}

/** Lines built at once while a file is written: enough to keep the threads WebCrypto signs on busy. */
const IN_FLIGHT = 256;

/**
 * Writes `count` lines to `file` as `make` builds them (a request with a fresh assertion or proof, a path with
 * a fresh JWE), streaming: at most `IN_FLIGHT` lines are in memory at a time however many the file holds,
 * where joining them into one string had failed with `RangeError: Invalid string length` for the count a
 * fast machine needs.
 *
 * @example
 * ```ts
 * await writeLines(file, 100_000, async () => JSON.stringify({ headers: { dpop: await proofs.proof(target) } }));
 * ```
 */
export async function writeLines(file: string, count: number, make: (index: number) => Promise<string>): Promise<void> {
  const out = createWriteStream(file);
  // Noted rather than raced: a promise raced against every batch would keep each batch alive until it settles.
  let failure: Error | undefined;
  out.on('error', (error) => (failure = error));
  const check = () => {
    if (failure) throw failure;
  };
  for (let first = 0; first < count; first += IN_FLIGHT) {
    const batch = await Promise.all(Array.from({ length: Math.min(IN_FLIGHT, count - first) }, (_, offset) => make(first + offset)));
    check();
    // events.once rejects if the stream fails meanwhile.
    if (!out.write(`${batch.join('\n')}\n`)) await once(out, 'drain');
  }
  check();
  out.end();
  await once(out, 'finish');
}

const CHUNK = 1 << 20;

/**
 * Reads a request or path file a line at a time, synchronously (autocannon asks for each request synchronously), a
 * 1 MiB chunk at a time: memory holds one chunk, whatever the file's size.
 *
 * @example
 * ```ts
 * const reader = new RequestFileReader(file);
 * for (let line = reader.next(); line !== undefined; line = reader.next()) send(JSON.parse(line));
 * ```
 */
export class RequestFileReader {
  readonly #fd: number;
  readonly #chunk = Buffer.alloc(CHUNK);
  #position = 0;
  /** The bytes after the last line break read so far: the start of a line the next chunk ends. */
  #pending = Buffer.alloc(0);
  #lines: string[] = [];
  #next = 0;
  #ended = false;

  constructor(file: string) {
    this.#fd = openSync(file, 'r');
  }

  /** The next non-empty line, or undefined once the file is read to its end. */
  next(): string | undefined {
    while (this.#next >= this.#lines.length) {
      if (this.#ended) return undefined;
      const read = readSync(this.#fd, this.#chunk, 0, CHUNK, this.#position);
      this.#position += read;
      const bytes = Buffer.concat([this.#pending, this.#chunk.subarray(0, read)]);
      // Cut at the last line break, in bytes, so that no line (nor character) is decoded half read.
      const cut = read === 0 ? bytes.length : bytes.lastIndexOf(0x0a) + 1;
      this.#pending = Buffer.from(bytes.subarray(cut));
      this.#lines = bytes.toString('utf8', 0, cut).split('\n').filter(Boolean);
      this.#next = 0;
      if (read === 0) this.#ended = true;
    }
    return this.#lines[this.#next++];
  }

  /** Starts again from the first line. */
  rewind(): void {
    this.#position = 0;
    this.#pending = Buffer.alloc(0);
    this.#lines = [];
    this.#next = 0;
    this.#ended = false;
  }

  close(): void {
    closeSync(this.#fd);
  }
}

/** How many lines `file` holds, read a chunk at a time. */
export function countLines(file: string): number {
  const reader = new RequestFileReader(file);
  try {
    let count = 0;
    while (reader.next() !== undefined) count++;
    return count;
  } finally {
    reader.close();
  }
}
