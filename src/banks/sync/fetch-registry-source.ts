import { MAX_DIRECTORY_BYTES } from './read-registry-source.js';

/** How long downloading a directory may take. */
export const REGISTRY_FETCH_TIMEOUT_MS = 30_000;

/**
 * Downloads a registry source within a time and a size limit.
 * (Provisional: replaced by the guarded public-resource fetch that jwksUri fetching uses.)
 */
export async function fetchRegistrySource(url: string): Promise<Uint8Array> {
  const response = await fetch(url, { redirect: 'error', signal: AbortSignal.timeout(REGISTRY_FETCH_TIMEOUT_MS) });
  if (!response.ok) throw new Error(`the source answered HTTP ${response.status}`);
  const chunks: Uint8Array[] = [];
  let total = 0;
  for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
    total += chunk.length;
    if (total > MAX_DIRECTORY_BYTES) throw new Error(`the source is larger than ${MAX_DIRECTORY_BYTES} bytes`);
    chunks.push(chunk);
  }
  return Buffer.concat(chunks);
}
