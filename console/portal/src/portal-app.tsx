import { startAuthentication, startRegistration } from '@simplewebauthn/browser';
import type { PublicKeyCredentialCreationOptionsJSON, PublicKeyCredentialRequestOptionsJSON } from '@simplewebauthn/browser';
import { PORTAL_INVITATION_ACCEPT_PATH, PORTAL_INVITATION_OPTIONS_PATH, PORTAL_INVITATION_PATH, PORTAL_SESSION_PATH, PORTAL_SIGN_IN_OPTIONS_PATH, PORTAL_SIGN_IN_PATH, PORTAL_SIGN_OUT_PATH } from '@partner-gateway/contract/paths';
import type { InvitationView, PasskeyOptions, PasskeyResponse, PortalSession } from '@partner-gateway/contract/portal';
import { useEffect, useState } from 'preact/hooks';
import { call, remember } from './portal-api';
import { useAttempt } from './use-attempt';
import { PortalHome } from './portal-home';
import { browserLanguage, wordsIn, type Language } from './words';

/**
 * The partner portal: an invitation link (`#invitation=…`) offers to create a passkey; otherwise a session is
 * looked for, and without one the page offers to sign in with a passkey. Signed in, the home page's sections call
 * the self-service API with the session.
 */
export function PortalApp() {
  const [language, setLanguage] = useState<Language>(browserLanguage());
  const [session, setSession] = useState<PortalSession | null | undefined>(undefined);
  const { problem, attempt } = useAttempt();
  const invitationToken = new URLSearchParams(location.hash.slice(1)).get('invitation');
  const words = wordsIn(language);
  const signedIn = (next: PortalSession | null) => {
    remember(next ?? undefined);
    setSession(next);
  };
  useEffect(() => {
    if (invitationToken) return signedIn(null);
    call<PortalSession>('GET', PORTAL_SESSION_PATH).then(signedIn, () => signedIn(null));
  }, []);
  const signIn = () =>
    attempt(async () => {
      const options = await call<PasskeyOptions>('POST', PORTAL_SIGN_IN_OPTIONS_PATH);
      const response = await startAuthentication({ optionsJSON: options as unknown as PublicKeyCredentialRequestOptionsJSON });
      signedIn(await call<PortalSession>('POST', PORTAL_SIGN_IN_PATH, { response: response as unknown as PasskeyResponse }));
    });
  const signOut = async (everywhere: boolean) => {
    await call('POST', PORTAL_SIGN_OUT_PATH, { everywhere }).catch(() => undefined);
    signedIn(null);
  };
  return (
    <main lang={language}>
      <header>
        <h1>{words('title')}</h1>
        <button type="button" onClick={() => setLanguage(language === 'ru' ? 'en' : 'ru')}>
          {language === 'ru' ? 'English' : 'Русский'}
        </button>
        {session && (
          <p data-testid="signed-in-as">
            {session.user.name} · {session.partner} · {session.user.role}{' '}
            <button type="button" onClick={() => void signOut(false)}>{words('signOut')}</button>{' '}
            <button type="button" onClick={() => void signOut(true)}>{words('signOutEverywhere')}</button>
          </p>
        )}
      </header>
      {session === undefined ? null : session ? (
        <PortalHome session={session} words={words} />
      ) : invitationToken ? (
        <Invitation token={invitationToken} words={words} onSignedIn={(next) => { history.replaceState(null, '', location.pathname); signedIn(next); }} />
      ) : (
        <section>
          <button type="button" onClick={() => void signIn()}>{words('signIn')}</button>
          {problem && <p role="alert">{problem}</p>}
        </section>
      )}
    </main>
  );
}

/** An invitation: what it offers, and the button that creates the passkey and accepts it. */
function Invitation({ token, words, onSignedIn }: { token: string; words: ReturnType<typeof wordsIn>; onSignedIn: (session: PortalSession) => void }) {
  const [view, setView] = useState<InvitationView>();
  const { problem, attempt } = useAttempt();
  useEffect(() => void attempt(async () => setView(await call<InvitationView>('POST', PORTAL_INVITATION_PATH, { token }))), [token]);
  const accept = () =>
    attempt(async () => {
      const options = await call<PasskeyOptions>('POST', PORTAL_INVITATION_OPTIONS_PATH, { token });
      const response = await startRegistration({ optionsJSON: options as unknown as PublicKeyCredentialCreationOptionsJSON });
      onSignedIn(await call<PortalSession>('POST', PORTAL_INVITATION_ACCEPT_PATH, { token, response: response as unknown as PasskeyResponse }));
    });
  return (
    <section>
      <h2>{words('invited')}</h2>
      {view && (
        <p data-testid="invitation">
          {view.name} · {view.partner} · {view.role}
        </p>
      )}
      {view && <button type="button" onClick={() => void accept()}>{words('createPasskey')}</button>}
      {problem && <p role="alert">{problem}</p>}
    </section>
  );
}
