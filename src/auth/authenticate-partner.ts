import { AppError, errors } from '../errors.js';
import type { BruteForceGuard } from './brute-force-guard.js';
import type { Partner } from '../partners/partner.js';
import type { PartnerRepository } from '../partners/partner-repository.js';
import type { PasswordVerifier } from '../partners/password-verifier.js';
import { invalidTokenHeader, type AccessTokens } from './access-tokens.js';
import type { DecryptedPassword } from './decrypt-partner-password.js';
import type { JtiReplayRepository } from './jti-replay-repository.js';
import type { BanksCredentials } from './read-banks-credentials.js';
import type { TokenFamilyRepository } from './token-family-repository.js';

export interface AuthenticationDependencies {
  partners: PartnerRepository;
  tokens: AccessTokens;
  families: TokenFamilyRepository;
  replay: JtiReplayRepository;
  guard: BruteForceGuard;
  passwords: PasswordVerifier;
  decryptPassword(jwe: string): Promise<DecryptedPassword>;
}

/**
 * Proves who is calling, or throws the 401. It says nothing about status, address or reward type: those
 * are the next steps, and they run only once this one has succeeded.
 */
export async function authenticatePartner(credentials: BanksCredentials, clientAddress: string, deps: AuthenticationDependencies): Promise<Partner> {
  if (credentials.scheme === 'password') return authenticateWithEncryptedPassword(credentials.partnerName, credentials.jwe, clientAddress, deps);
  try {
    return await authenticateWithToken(credentials.token, credentials.partnerName, deps);
  } catch (error) {
    // A valid token is never throttled (it is not a guess); each refused one counts against the address.
    if (error instanceof AppError && error.status === 401) return deps.guard.fail(error, clientAddress);
    throw error;
  }
}

/**
 * Login and API password: the password is checked with argon2 against the partner's hash, or against a
 * dummy hash for an unknown login, so both cost the same.
 */
export async function authenticateWithPassword(
  login: string,
  password: string,
  clientAddress: string,
  deps: Pick<AuthenticationDependencies, 'partners' | 'guard' | 'passwords'>,
  options: { remember?: boolean } = {},
): Promise<Partner> {
  // PostgreSQL text cannot hold U+0000, so no partner's login contains it, and looking such a login up or
  // counting failures under it would only fail the query: a 400 where every other unknown login gets the
  // 401. It is answered as an unknown login, after the same dummy argon2 verification so that it costs the
  // same, and its failures count against the address alone, there being no partner's login to protect.
  const storable = !login.includes('\0');
  const partner = storable ? await deps.partners.findByLogin(login) : undefined;
  const throttledLogin = storable ? login : undefined;
  // Locked callers are refused before the (deliberately slow) password check.
  await deps.guard.check(clientAddress, throttledLogin, partner);
  const valid = await deps.passwords.verify(partner, password, options);
  if (!partner) return deps.guard.fail(errors.unauthorized('unknown_partner'), clientAddress, throttledLogin);
  if (!valid) return deps.guard.fail(errors.unauthorized('wrong_password'), clientAddress, login, partner);
  await deps.guard.succeeded(clientAddress, login);
  return partner;
}

async function authenticateWithEncryptedPassword(
  partnerName: string,
  jwe: string,
  clientAddress: string,
  deps: AuthenticationDependencies,
): Promise<Partner> {
  await deps.guard.check(clientAddress);
  let decrypted: DecryptedPassword;
  try {
    decrypted = await deps.decryptPassword(jwe);
  } catch (error) {
    if (error instanceof AppError) return deps.guard.fail(error, clientAddress);
    throw error;
  }
  // The encrypted-password scheme sends the password on every call: a recent success is remembered, so a
  // replay usually costs an HMAC, not argon2. The jti is claimed only once the password is checked: a call
  // refused before that (503 when the argon2 queue is full, 500) leaves its JWE unspent, so a load balancer
  // may retry it on another instance.
  const partner = await authenticateWithPassword(partnerName, decrypted.password, clientAddress, deps, { remember: true });
  if (!(await deps.replay.claim(decrypted.jti, decrypted.rememberUntil))) {
    return deps.guard.fail(errors.unauthorized('replayed_jti'), clientAddress, partnerName, partner);
  }
  return partner;
}

/**
 * A bearer token: a valid signature is not enough. The partner must still exist with the token generation
 * the token was issued under (blocking, deleting and a new password move it on), and the token's family
 * must not be revoked (logout, refresh-token reuse).
 */
export async function authenticateWithToken(
  token: string,
  partnerName: string | undefined,
  deps: Pick<AuthenticationDependencies, 'tokens' | 'partners' | 'families'>,
): Promise<Partner & { familyId: string }> {
  const claims = await deps.tokens.verify(token);
  const [partner, family] = await Promise.all([deps.partners.findById(claims.partnerId), deps.families.find(claims.familyId)]);
  if (!partner) throw errors.unauthorized('unknown_partner', invalidTokenHeader);
  if (partner.tokenGeneration !== claims.generation || !family || family.revokedAt !== null || family.partnerId !== partner.id) {
    throw errors.unauthorized('token_revoked', invalidTokenHeader);
  }
  if (partnerName !== undefined && partnerName !== partner.login) {
    throw errors.unauthorized('partner_mismatch', invalidTokenHeader);
  }
  return { ...partner, familyId: family.id };
}
