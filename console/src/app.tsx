import type { AdminIdentity } from '@partner-gateway/contract/admin-operators';
import { useEffect, useState } from 'preact/hooks';
import type { ProposalView } from '@partner-gateway/contract/admin-approvals';
import { admin, onChanged, onProposed, onSignedOut, probe } from './api';
import { onAnnounce } from './announce';
import { PageTitle } from './components/page';
import { IdentityContext, useCan } from './identity';
import { ApprovalsPage } from './pages/approvals';
import { AuditPage } from './pages/audit';
import { BanksPage } from './pages/banks';
import { KeysPage } from './pages/keys';
import { OperatorPage } from './pages/operator';
import { OperatorsPage } from './pages/operators';
import { NewPartnerPage } from './pages/partner-new';
import { PartnerPage } from './pages/partner';
import { PartnersPage } from './pages/partners';
import { SignIn } from './pages/sign-in';
import { forgetToken, readToken, saveCsrfToken } from './session';
import { type Route, useRoute } from './router';

const SECTIONS = [
  { path: 'partners', label: 'Partners' },
  { path: 'banks', label: 'Banks' },
  { path: 'keys', label: 'Keys' },
  { path: 'audit', label: 'Audit' },
  { path: 'approvals', label: 'Approvals' },
  { path: 'operators', label: 'Operators' },
] as const;

type State = { kind: 'checking' } | { kind: 'signed-out'; reason: string | null } | { kind: 'signed-in'; identity: AdminIdentity; session: boolean };

/**
 * Signed in with the tab's token, or with the single sign-on session cookie (found by asking for the session), or
 * not at all: the sign-in page.
 */
export function App() {
  const [state, setState] = useState<State>({ kind: 'checking' });
  const route = useRoute();

  async function resume(reason: string | null = null) {
    if (readToken() !== null) {
      try {
        setState({ kind: 'signed-in', identity: await admin.session.me(), session: false });
      } catch {
        setState({ kind: 'signed-out', reason: 'The gateway refused the token (it may have been revoked or expired). Sign in again.' });
      }
      return;
    }
    try {
      const session = await probe.session.get();
      saveCsrfToken(session.csrfToken);
      setState({ kind: 'signed-in', identity: session.identity, session: true });
    } catch {
      setState({ kind: 'signed-out', reason });
    }
  }

  useEffect(() => {
    void resume();
    return onSignedOut(() => setState({ kind: 'signed-out', reason: 'The gateway refused your credential (signed out elsewhere, expired or revoked). Sign in again.' }));
  }, []);

  if (state.kind === 'checking') return <p aria-busy="true">Loading the console…</p>;
  if (state.kind === 'signed-out') {
    return (
      <SignIn
        reason={state.reason}
        onSignedIn={async () => {
          await resume();
          if (route.segments.length === 0) location.hash = '#/partners';
        }}
      />
    );
  }
  return (
    <IdentityContext.Provider value={state.identity}>
      <Shell
        route={route}
        identity={state.identity}
        onSignOut={async () => {
          if (state.session) await admin.session.signOut().catch(() => {});
          forgetToken();
          setState({ kind: 'signed-out', reason: 'You have signed out.' });
        }}
      />
    </IdentityContext.Provider>
  );
}

function Shell({ route, identity, onSignOut }: { route: Route; identity: AdminIdentity; onSignOut: () => void }) {
  const [message, setMessage] = useState('');
  const [proposed, setProposed] = useState<ProposalView | null>(null);
  useEffect(() => onAnnounce((said) => (setMessage(said), setProposed(null))), []);
  useEffect(() => onProposed((proposal) => (setProposed(proposal), setMessage(''))), []);
  // A message belongs to the page it was said on.
  const routeKey = route.segments.join('/');
  useEffect(() => (setMessage(''), setProposed(null)), [routeKey]);
  const pending = usePendingCount(routeKey);
  const first = route.segments[0] ?? 'partners';
  const section = first === 'partner' ? 'partners' : first === 'operator' ? 'operators' : first;
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
                  {path === 'approvals' && pending !== null && pending > 0 && (
                    <span class="count-badge" data-testid="pending-approvals" title={`${pending} proposal${pending === 1 ? '' : 's'} waiting for approval`}>
                      {' '}
                      {pending}
                      <span class="visually-hidden"> waiting</span>
                    </span>
                  )}
                </a>
              </li>
            ))}
          </ul>
        </nav>
        <p class="who" data-testid="signed-in-as">
          {identity.name} <span class="muted">({identity.role ?? 'bootstrap admin'}, {identity.credential === 'sso' ? 'single sign-on' : identity.credential === 'token' ? 'personal token' : 'ADMIN_TOKEN'})</span>
        </p>
        <button type="button" class="sign-out" onClick={onSignOut}>
          Sign out
        </button>
      </header>
      <div class="announcer" role="status" aria-live="polite">
        {message && <p class="notice">{message}</p>}
        {proposed && <SentForApproval proposal={proposed} />}
      </div>
      <main id="main" tabIndex={-1}>
        <Page route={route} />
      </main>
    </>
  );
}

/** A change the gateway held for a second operator: not a failure, and where it now waits. */
function SentForApproval({ proposal }: { proposal: ProposalView }) {
  const heldBecause = (proposal.preview as { heldBecause?: unknown } | null)?.heldBecause;
  return (
    <div class="notice notice-proposed" data-testid="sent-for-approval">
      <p class="notice-title">Sent for approval</p>
      <p>
        {proposal.action} of {proposal.target} waits for a second operator; nothing changes until it is approved.
        {typeof heldBecause === 'string' && ` Held because ${heldBecause}.`} <a href="#/approvals">Open Approvals</a>
      </p>
    </div>
  );
}

/** How often the pending count is asked again while the console stays on one page (others' proposals). */
const PENDING_REFRESH_MS = 60_000;

/**
 * The number of proposals waiting, for an operator who may decide them (null otherwise): asked on every page
 * change, after every change sent, and every minute.
 */
function usePendingCount(routeKey: string): number | null {
  const canDecide = useCan('approvals.decide');
  const [count, setCount] = useState<number | null>(null);
  useEffect(() => {
    if (!canDecide) return;
    let live = true;
    const refresh = () =>
      void admin.approvals.list({ status: 'pending', limit: '500' }).then(
        (body) => live && setCount(body.proposals.length),
        () => {},
      );
    refresh();
    const stop = onChanged(refresh);
    const timer = setInterval(refresh, PENDING_REFRESH_MS);
    return () => {
      live = false;
      stop();
      clearInterval(timer);
    };
  }, [canDecide, routeKey]);
  return canDecide ? count : null;
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
    case 'approvals':
      return <ApprovalsPage />;
    case 'operators':
      if (detail === undefined) return <OperatorsPage />;
      break;
    case 'operator':
      if (detail !== undefined && route.segments.length === 2) return <OperatorPage key={detail} id={detail} />;
      break;
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
