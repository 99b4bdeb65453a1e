import { Type, type Static } from 'typebox';
import { PartnerUserRole, PartnerUserName } from './partner-users.js';

/**
 * The partner portal's own calls (`/portal/api/…`): accepting an invitation with a new passkey, signing in with one,
 * the session and signing out. Everything else the portal does is the self-service API (`/api/v1/self/…`), called
 * with the session's cookie and CSRF token instead of an access token.
 */

/** An invitation's secret, as the link's fragment carries it (`/portal/#invitation=…`). */
export const InvitationToken = () => Type.String({ pattern: '^[A-Za-z0-9_-]{32,64}$', description: "The invitation link's secret (after `#invitation=`)" });

/** POST /portal/api/invitation and /portal/api/invitation/options body. */
export const InvitationTokenBody = Type.Object({ token: InvitationToken() }, { title: 'InvitationTokenBody', additionalProperties: false });
export type InvitationTokenBody = Static<typeof InvitationTokenBody>;

/** What an invitation offers, shown before the person creates a passkey. */
export const InvitationView = Type.Object(
  {
    partner: Type.String({ description: "The partner's login" }),
    name: PartnerUserName(),
    role: PartnerUserRole,
    expiresAt: Type.String({ format: 'date-time' }),
    recovery: Type.Boolean(),
  },
  { title: 'InvitationView' },
);
export type InvitationView = Static<typeof InvitationView>;

/**
 * WebAuthn options for `navigator.credentials.create()` or `.get()` in their JSON form (WebAuthn Level 3
 * `PublicKeyCredentialCreationOptionsJSON` / `…RequestOptionsJSON`): passed to the browser as they are.
 */
export const PasskeyOptions = Type.Object(
  { challenge: Type.String(), rpId: Type.Optional(Type.String()), timeout: Type.Optional(Type.Integer()) },
  { title: 'PasskeyOptions', additionalProperties: true },
);
export type PasskeyOptions = Static<typeof PasskeyOptions>;

/** A WebAuthn credential's answer in its JSON form (`PublicKeyCredential.toJSON()`), checked by the server's WebAuthn library. */
export const PasskeyResponse = Type.Object(
  {
    id: Type.String({ minLength: 1, maxLength: 1400 }),
    rawId: Type.String({ minLength: 1, maxLength: 1400 }),
    type: Type.Literal('public-key'),
    response: Type.Object(
      {
        clientDataJSON: Type.String({ maxLength: 4096 }),
        /** A registration's. */
        attestationObject: Type.Optional(Type.String({ maxLength: 16384 })),
        transports: Type.Optional(Type.Array(Type.String({ maxLength: 32 }), { maxItems: 10 })),
        publicKey: Type.Optional(Type.String({ maxLength: 4096 })),
        publicKeyAlgorithm: Type.Optional(Type.Integer()),
        authenticatorData: Type.Optional(Type.String({ maxLength: 4096 })),
        /** A sign-in's. */
        signature: Type.Optional(Type.String({ maxLength: 4096 })),
        userHandle: Type.Optional(Type.String({ maxLength: 512 })),
      },
      { additionalProperties: false },
    ),
    clientExtensionResults: Type.Optional(Type.Object({}, { additionalProperties: true })),
    authenticatorAttachment: Type.Optional(Type.String({ maxLength: 32 })),
  },
  { title: 'PasskeyResponse', additionalProperties: false },
);
export type PasskeyResponse = Static<typeof PasskeyResponse>;

/** POST /portal/api/invitation/accept body: the invitation and the passkey just created for it. */
export const AcceptInvitationRequest = Type.Object({ token: InvitationToken(), response: PasskeyResponse }, { title: 'AcceptInvitationRequest', additionalProperties: false });
export type AcceptInvitationRequest = Static<typeof AcceptInvitationRequest>;

/** POST /portal/api/sign-in body: the passkey's assertion over the challenge /sign-in/options gave. */
export const PortalSignInRequest = Type.Object({ response: PasskeyResponse }, { title: 'PortalSignInRequest', additionalProperties: false });
export type PortalSignInRequest = Static<typeof PortalSignInRequest>;

/**
 * The portal's session (GET /portal/api/session, and the answer to signing in): who is signed in, for which partner,
 * and the CSRF token every change made with the session's cookie carries as `X-CSRF-Token`.
 */
export const PortalSession = Type.Object(
  {
    user: Type.Object({ id: Type.String(), name: PartnerUserName(), role: PartnerUserRole }),
    partner: Type.String({ description: "The partner's login" }),
    csrfToken: Type.String(),
    expiresAt: Type.String({ format: 'date-time', description: 'When the session ends however active (SESSION_MAX_AGE); it ends sooner after SESSION_IDLE_TIMEOUT without a request' }),
  },
  { title: 'PortalSession' },
);
export type PortalSession = Static<typeof PortalSession>;

/** POST /portal/api/sign-out body: `everywhere` ends every session of the person, on every device. */
export const PortalSignOutRequest = Type.Object({ everywhere: Type.Optional(Type.Boolean({ default: false })) }, { title: 'PortalSignOutRequest', additionalProperties: false });
export type PortalSignOutRequest = Static<typeof PortalSignOutRequest>;
