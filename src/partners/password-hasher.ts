import { hash, verify, type Algorithm } from '@node-rs/argon2';

/**
 * argon2id with the OWASP parameters (m = 19456 KiB, t = 2, p = 1). The work runs on the libuv thread pool,
 * so the event loop stays free while a hash is computed.
 */
const ARGON2_OPTIONS = {
  algorithm: 2 as Algorithm, // Algorithm.Argon2id; a const enum, so it cannot be imported under isolatedModules.
  memoryCost: 19_456,
  timeCost: 2,
  parallelism: 1,
} as const;

export function hashPassword(password: string): Promise<string> {
  return hash(password, ARGON2_OPTIONS);
}

/**
 * A hash of a random password, computed once. Checking a password against it costs exactly what checking
 * a real partner's hash costs, so an unknown login cannot be told from a wrong password by timing.
 */
let dummyHash: Promise<string> | undefined;

let verifications = 0;

/** How many argon2 verifications this process has run (for metrics, and to show an unknown login costs one too). */
export function argon2Verifications(): number {
  return verifications;
}

/**
 * Verifies `password` against `passwordHash`, or against the dummy hash when there is no partner, and
 * always performs one full argon2 verification.
 */
export async function verifyPassword(passwordHash: string | undefined, password: string): Promise<boolean> {
  verifications++;
  if (passwordHash === undefined) {
    dummyHash ??= hash(crypto.randomUUID(), ARGON2_OPTIONS);
    await verify(await dummyHash, password).catch(() => false);
    return false;
  }
  try {
    return await verify(passwordHash, password);
  } catch {
    return false;
  }
}
