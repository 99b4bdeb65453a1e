import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';

/**
 * Where outgoing connections take their local ports (Linux's net.ipv4.ip_local_port_range). A port the OS
 * hands out for `listen(0)` comes from this range too, so between the moment it is released here and the
 * moment a gateway process listens on it, any outgoing connection (a database pool has dozens) may take it:
 * ports are picked below the range instead.
 */
function ephemeralRange(): [number, number] {
  try {
    const [low, high] = readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/).map(Number);
    if (low && high) return [low, high];
  } catch {
    // Not Linux: the IANA dynamic range.
  }
  return [49152, 65535];
}

const [EPHEMERAL_LOW] = ephemeralRange();
const LOWEST = 10_000;

/** A port nothing listens on right now, outside the range outgoing connections use: bound once, then released. */
export async function freePort(): Promise<number> {
  const highest = Math.max(LOWEST + 1_000, EPHEMERAL_LOW - 1);
  for (let attempt = 0; attempt < 50; attempt++) {
    const port = LOWEST + Math.floor(Math.random() * (highest - LOWEST));
    if (await canListen(port)) return port;
  }
  throw new Error(`no free port found between ${LOWEST} and ${highest}`);
}

/** True when a listener could bind `port` on 127.0.0.1 right now (it is released at once). */
export function canListen(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}
