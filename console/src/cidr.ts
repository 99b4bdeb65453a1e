import { normalizeCidr } from '../../src/partners/ip-allowlist.js';

/**
 * The form's check of an IP allowlist entry: the gateway's own (src/partners/ip-allowlist.ts), bundled into
 * the console so that the form answers before the round trip with exactly the server's rule and message
 * (an address or a CIDR, no host bits set, IPv4 only as four decimal numbers). The gateway checks again.
 */
export const checkCidr: (entry: string) => { cidr: string } | { error: string } = normalizeCidr;

/** The entries of an allowlist as typed: one per line, or separated by commas or spaces. */
export function splitAllowlist(text: string): string[] {
  return text
    .split(/[\s,;]+/)
    .map((entry) => entry.trim())
    .filter((entry) => entry.length > 0);
}

/** Every entry's problem, in order, or an empty list. */
export function allowlistProblems(entries: readonly string[]): string[] {
  return entries.flatMap((entry) => {
    const result = checkCidr(entry);
    return 'error' in result ? [result.error] : [];
  });
}
