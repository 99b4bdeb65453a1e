import { useEffect, useState } from 'preact/hooks';
import { onSignedOut } from './api';
import { onAnnounce } from './announce';
import { PageTitle } from './components/page';
import { AuditPage } from './pages/audit';
import { BanksPage } from './pages/banks';
import { KeysPage } from './pages/keys';
import { NewPartnerPage } from './pages/partner-new';
import { PartnerPage } from './pages/partner';
import { PartnersPage } from './pages/partners';
import { SignIn } from './pages/sign-in';
import { forgetToken, readToken } from './session';
import { type Route, useRoute } from './router';

const SECTIONS = [
  { path: 'partners', label: 'Partners' },
  { path: 'banks', label: 'Banks' },
  { path: 'keys', label: 'Keys' },
  { path: 'audit', label: 'Audit' },
] as const;

export function App() {
  const [signedIn, setSignedIn] = useState(() => readToken() !== null);
  const [reason, setReason] = useState<string | null>(null);
  const route = useRoute();
  useEffect(
    () =>
      onSignedOut(() => {
        setReason('The gateway refused the admin token (it may have been changed). Sign in again.');
        setSignedIn(false);
      }),
    [],
  );
  if (!signedIn) {
    return (
      <SignIn
        reason={reason}
        onSignedIn={() => {
          setReason(null);
          setSignedIn(true);
          if (route.segments.length === 0) location.hash = '#/partners';
        }}
      />
    );
  }
  return (
    <Shell
      route={route}
      onSignOut={() => {
        forgetToken();
        setReason('You have signed out.');
        setSignedIn(false);
      }}
    />
  );
}

function Shell({ route, onSignOut }: { route: Route; onSignOut: () => void }) {
  const [message, setMessage] = useState('');
  useEffect(() => onAnnounce(setMessage), []);
  // A message belongs to the page it was said on.
  const routeKey = route.segments.join('/');
  useEffect(() => setMessage(''), [routeKey]);
  const first = route.segments[0] ?? 'partners';
  const section = first === 'partner' ? 'partners' : first;
  return (
    <>
      <a class="skip-link" href="#main" onClick={(event) => (event.preventDefault(), document.getElementById('main')?.focus())}>
        Skip to content
      </a>
      <header class="top">
        <p class="brand">Partner Gateway · admin</p>
        <nav aria-label="Sections">
          <ul>
            {SECTIONS.map(({ path, label }) => (
              <li key={path}>
                <a href={`#/${path}`} aria-current={section === path ? 'page' : undefined}>
                  {label}
                </a>
              </li>
            ))}
          </ul>
        </nav>
        <button type="button" class="sign-out" onClick={onSignOut}>
          Sign out
        </button>
      </header>
      <div class="announcer" role="status" aria-live="polite">
        {message && <p class="notice">{message}</p>}
      </div>
      <main id="main" tabIndex={-1}>
        <Page route={route} />
      </main>
    </>
  );
}

function Page({ route }: { route: Route }) {
  const [section = 'partners', detail] = route.segments;
  switch (section) {
    case 'partners':
      if (detail === undefined) return <PartnersPage />;
      if (detail === 'new' && route.segments.length === 2) return <NewPartnerPage />;
      break;
    case 'partner':
      if (detail !== undefined && route.segments.length === 2) return <PartnerPage key={detail} login={detail} />;
      break;
    case 'banks':
      return <BanksPage />;
    case 'keys':
      return <KeysPage />;
    case 'audit':
      return <AuditPage query={route.query} />;
  }
  return (
    <>
      <PageTitle title="Not found" />
      <p>
        There is no such page. <a href="#/partners">Go to the partners</a>.
      </p>
    </>
  );
}
