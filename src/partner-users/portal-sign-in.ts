import type { AuthenticationResponseJSON, RegistrationResponseJSON } from '@simplewebauthn/server';
import { MAX_PASSKEYS_PER_USER } from '@partner-gateway/contract/partner-users';
import type { AcceptInvitationRequest, InvitationView, PasskeyOptions, PortalSignInRequest } from '@partner-gateway/contract/portal';
import { errors } from '../errors.js';
import { csrfTokenOf, newRandomId, secretHash } from '../operators/operator-secrets.js';
import type { Partner } from '../partners/partner.js';
import type { PartnerRepository } from '../partners/partner-repository.js';
import type { PasskeyChallenges } from './passkey-challenges.js';
import type { PasskeySite } from './passkey-site.js';
import type { PartnerUser, PartnerUserRepository } from './partner-user-repository.js';
import type { PortalUser } from '../request-context.js';
import type { Invitation, PortalRepository } from './portal-repository.js';

/**
 * The passkey library, loaded at the portal's first passkey call: with its X.509 and CBOR dependencies it is
 * ~4.4 MB of heap that a gateway whose partners never open the portal would carry (docs/performance.md).
 */
const webauthn = () => import('@simplewebauthn/server');

export interface PortalSignInDependencies {
  users: PartnerUserRepository;
  portal: PortalRepository;
  partners: Pick<PartnerRepository, 'findById'>;
  challenges: PasskeyChallenges;
  /** Undefined when PUBLIC_URL names an IP address: passkeys cannot work there. */
  site: PasskeySite | undefined;
  /** SESSION_MAX_AGE and SESSION_IDLE_TIMEOUT, in milliseconds: the console's timeouts. */
  maxAgeMs: number;
  idleMs: number;
  now: () => number;
}

/** A session just started: the cookie's random id (returned once, stored only as its hash) and who it is. */
export interface StartedSession {
  sessionId: string;
  principal: PortalUser;
}

/**
 * Signing in to the portal: an invitation accepted with a new passkey, a sign-in with a registered one, the session
 * each starts, and signing out. Every refusal of a ceremony is the same 401 `passkey_refused`, and every unusable
 * invitation the same 404, so that neither tells a guesser which check failed.
 */
export interface PortalSignIn {
  invitation(token: string): Promise<InvitationView>;
  registrationOptions(token: string): Promise<PasskeyOptions>;
  accept(body: AcceptInvitationRequest): Promise<StartedSession>;
  signInOptions(): Promise<PasskeyOptions>;
  signIn(body: PortalSignInRequest): Promise<StartedSession>;
  /** Who the session cookie `sessionId` belongs to, and their partner as stored now; 401 `portal_sign_in_required` when it is over. */
  session(sessionId: string): Promise<{ user: PortalUser; partner: Partner }>;
  signOut(principal: PortalUser, everywhere: boolean): Promise<void>;
}

export function createPortalSignIn(deps: PortalSignInDependencies): PortalSignIn {
  const site = (): PasskeySite => deps.site ?? unavailable();
  const open = async (token: string): Promise<Invitation> => (await deps.portal.openInvitation(secretHash(token), new Date(deps.now()))) ?? notFound();
  const spend = (purpose: string) => async (challenge: string) => {
    const expiresAt = deps.challenges.expiry(challenge, purpose);
    return expiresAt !== undefined && deps.portal.spendChallenge(challenge, expiresAt);
  };

  async function start(user: PartnerUser): Promise<StartedSession> {
    const partner = await deps.partners.findById(user.partnerId);
    if (!partner) throw errors.passkeyRefused();
    if (partner.status !== 'active') throw errors.blocked();
    const sessionId = newRandomId();
    const at = new Date(deps.now());
    const expiresAt = new Date(at.getTime() + deps.maxAgeMs);
    await deps.portal.insertSession({ idHash: secretHash(sessionId), userId: user.id, createdAt: at, lastSeenAt: at, expiresAt });
    await deps.users.signedIn(user.id, at);
    return { sessionId, principal: portalUserOf(user, partner, sessionId, expiresAt) };
  }

  return {
    async invitation(token) {
      const invitation = await open(token);
      const partner = await deps.partners.findById(invitation.partnerId);
      if (!partner) notFound();
      return { partner: partner.login, name: invitation.name, role: invitation.role, expiresAt: invitation.expiresAt.toISOString(), recovery: invitation.userId !== null };
    },
    async registrationOptions(token) {
      const { rpId } = site();
      const invitation = await open(token);
      const existing = invitation.userId === null ? [] : await deps.users.passkeysOf(invitation.userId);
      return (await (await webauthn()).generateRegistrationOptions({
        rpName: 'Partner Gateway',
        rpID: rpId,
        userName: invitation.name,
        userID: new TextEncoder().encode(invitation.userId ?? invitation.id),
        challenge: challengeBytes(deps.challenges.issue(`register:${invitation.id}`)),
        attestationType: 'none',
        excludeCredentials: existing.map((passkey) => ({ id: passkey.id, transports: passkey.transports })),
        authenticatorSelection: { residentKey: 'required', userVerification: 'required' },
        timeout: 300_000,
      })) as PasskeyOptions;
    },
    async accept({ token, response }) {
      const { rpId, origin } = site();
      const invitation = await open(token);
      const verified = await (await webauthn()).verifyRegistrationResponse({
        response: response as unknown as RegistrationResponseJSON,
        expectedChallenge: spend(`register:${invitation.id}`),
        expectedOrigin: origin,
        expectedRPID: rpId,
        requireUserVerification: true,
      }).catch(() => undefined);
      if (!verified?.verified) throw errors.passkeyRefused();
      // Checked before the link is spent: refused, the link stays pending and listed rather than silently used up.
      if (invitation.userId !== null && (await deps.users.passkeysOf(invitation.userId)).length >= MAX_PASSKEYS_PER_USER) throw errors.partnerUsersLimit('passkeys per person', MAX_PASSKEYS_PER_USER);
      if (!(await deps.portal.useInvitation(invitation.id, new Date(deps.now())))) notFound();
      const user = invitation.userId === null ? await register(invitation) : await deps.users.get(invitation.userId);
      if (!user) notFound();
      const { credential } = verified.registrationInfo;
      await deps.users.addPasskey({
        id: credential.id,
        userId: user.id,
        publicKey: Buffer.from(credential.publicKey),
        counter: credential.counter,
        transports: credential.transports ?? [],
        createdAt: new Date(deps.now()),
      });
      return start(user);
    },
    async signInOptions() {
      const { rpId } = site();
      return (await (await webauthn()).generateAuthenticationOptions({ rpID: rpId, challenge: challengeBytes(deps.challenges.issue('sign-in')), userVerification: 'required', timeout: 300_000 })) as PasskeyOptions;
    },
    async signIn({ response }) {
      const { rpId, origin } = site();
      const passkey = await deps.users.passkey(response.id);
      const user = passkey && (await deps.users.get(passkey.userId));
      if (!passkey || !user) throw errors.passkeyRefused();
      const verified = await (await webauthn()).verifyAuthenticationResponse({
        response: response as unknown as AuthenticationResponseJSON,
        expectedChallenge: spend('sign-in'),
        expectedOrigin: origin,
        expectedRPID: rpId,
        credential: { id: passkey.id, publicKey: new Uint8Array(passkey.publicKey), counter: passkey.counter, transports: passkey.transports as never },
        requireUserVerification: true,
      }).catch(() => undefined);
      if (!verified?.verified) throw errors.passkeyRefused();
      if (!(await deps.users.usePasskey(passkey.id, passkey.counter, verified.authenticationInfo.newCounter, new Date(deps.now())))) throw errors.passkeyRefused();
      return start(user);
    },
    async session(sessionId) {
      const at = deps.now();
      const row = await deps.portal.touchSession(secretHash(sessionId), new Date(at), new Date(at - deps.idleMs));
      const user = row && (await deps.users.get(row.userId));
      const partner = user && (await deps.partners.findById(user.partnerId));
      if (!row || !user || !partner) throw errors.portalSignInRequired();
      return { user: portalUserOf(user, partner, sessionId, row.expiresAt), partner };
    },
    async signOut(principal, everywhere) {
      if (everywhere) await deps.portal.endSessionsOf(principal.userId);
      else await deps.portal.endSession(principal.sessionHash);
    },
  };

  async function register(invitation: Invitation): Promise<PartnerUser> {
    try {
      return await deps.users.insert({ id: `pu_${newRandomId().slice(0, 24)}`, partnerId: invitation.partnerId, name: invitation.name, role: invitation.role, createdBy: invitation.createdBy, createdAt: new Date(deps.now()) });
    } catch (error) {
      // Someone of that name registered meanwhile through another invitation: this one is spent and refused.
      if ((error as { code?: string }).code === '23505') notFound();
      throw error;
    }
  }
}

/**
 * Who a session is: the person, their partner, and the session's CSRF token, derived from the cookie's id as the
 * console's is (csrfTokenOf), so that it needs no storage.
 */
function portalUserOf(user: PartnerUser, partner: Pick<Partner, 'id' | 'login'>, sessionId: string, expiresAt: Date): PortalUser {
  return { userId: user.id, name: user.name, role: user.role, partnerId: partner.id, partnerLogin: partner.login, csrfToken: csrfTokenOf(sessionId), sessionHash: secretHash(sessionId), expiresAt };
}

/** The challenge as bytes: the library base64url-encodes a string's UTF-8 again, which would not be the challenge we signed. */
function challengeBytes(challenge: string): Uint8Array<ArrayBuffer> {
  return new Uint8Array(Buffer.from(challenge, 'base64url'));
}

function notFound(): never {
  throw errors.invitationUnknown();
}

function unavailable(): never {
  throw errors.passkeysUnavailable();
}
