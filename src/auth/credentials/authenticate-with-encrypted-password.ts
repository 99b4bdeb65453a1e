import { AppError, errors } from '../../errors.js';
import type { Partner } from '../../partners/partner.js';
import type { AuthDependencies, DecryptedPassword } from '../auth-dependencies.js';
import { authenticateWithPassword } from './authenticate-with-password.js';

/**
 * The seed's encrypted-password scheme: the JWE is decrypted (header checks first, see
 * decryptPartnerPassword), the password inside it checked like a login's, and its jti spent.
 */
export async function authenticateWithEncryptedPassword(
  partnerName: string,
  jwe: string,
  clientAddress: string,
  deps: Pick<AuthDependencies, 'partners' | 'guard' | 'passwords' | 'replay' | 'decryptPassword'>,
): Promise<Partner> {
  // No lock check here: an address's garbage (undecryptable JWEs, bad tokens) must not refuse a partner's
  // right password from it. Garbage is counted under its own key, which only ever refuses more garbage.
  let decrypted: DecryptedPassword;
  try {
    decrypted = await deps.decryptPassword(jwe);
  } catch (error) {
    if (error instanceof AppError) return deps.guard.failCheap(error, clientAddress);
    throw error;
  }
  // The encrypted-password scheme sends the password on every call: a recent success is remembered, so a
  // replay usually costs an HMAC, not argon2. The jti is claimed only once the password is checked: a call
  // refused before that (503 when the argon2 queue is full, 500) leaves its JWE unspent, so a load balancer
  // may retry it on another instance.
  const partner = await authenticateWithPassword(partnerName, decrypted.password, clientAddress, deps, { remember: true });
  // A replay carries the right password (captured), so it is no guess at it: counting it against the
  // partner's login would let whoever captured a JWE lock the partner out. It counts as garbage.
  // Issued before the replay state was lost (a crash, a Redis restart): it may have been spent, so it is
  // refused as a replay is, under a reason of its own.
  const spent = await deps.replay.spend(decrypted.jti, decrypted);
  if (spent !== 'spent') return deps.guard.failCheap(errors.unauthorized(spent === 'replayed' ? 'replayed_jti' : 'replay_state_lost'), clientAddress);
  return partner;
}
