import { AppError } from '../../errors.js';
import type { Partner } from '../../partners/partner.js';
import type { PartnerRepository } from '../../partners/partner-repository.js';
import type { PasswordVerifier } from '../../partners/password-verifier.js';
import type { JtiReplayRepository } from '../../stores/replay/jti-replay-repository.js';
import type { AccessTokens } from '../tokens/access-tokens.js';
import type { TokenFamilyRepository } from '../tokens/token-family-repository.js';
import { authenticateWithEncryptedPassword } from '../credentials/authenticate-with-encrypted-password.js';
import { authenticateWithToken } from './authenticate-with-token.js';
import type { BruteForceGuard } from './brute-force-guard.js';
import type { DecryptedPassword } from '../credentials/decrypt-partner-password.js';
import type { BanksCredentials } from './read-banks-credentials.js';
import type { DpopProofSettings } from '../binding/claim-dpop-proof.js';

export interface AuthenticationDependencies {
  partners: PartnerRepository;
  tokens: AccessTokens;
  families: TokenFamilyRepository;
  replay: JtiReplayRepository;
  guard: BruteForceGuard;
  passwords: PasswordVerifier;
  decryptPassword(jwe: string): Promise<DecryptedPassword>;
  /** DPoP proofs' window and replay store (bound tokens). */
  dpop: DpopProofSettings;
}

/**
 * Proves who is calling, or throws the 401. It says nothing about status, address or reward type: those
 * are the next steps, and they run only once this one has succeeded.
 */
export async function authenticatePartner(credentials: BanksCredentials, clientAddress: string, deps: AuthenticationDependencies, banksUrl = ''): Promise<Partner> {
  if (credentials.scheme === 'password') return authenticateWithEncryptedPassword(credentials.partnerName, credentials.jwe, clientAddress, deps);
  try {
    const holder = await authenticateWithToken(
      credentials.token,
      credentials.partnerName,
      deps,
      credentials.scheme === 'dpop'
        ? { scheme: 'dpop', proof: credentials.proof, method: 'POST', url: banksUrl, certificate: credentials.certificate }
        : { scheme: 'bearer', certificate: credentials.certificate },
    );
    return holder.partner;
  } catch (error) {
    // A valid token is never throttled (it is not a guess); each refused one counts under the address's
    // garbage key, which never locks a password.
    if (error instanceof AppError && error.status === 401) return deps.guard.failCheap(error, clientAddress);
    throw error;
  }
}
