import { SSO_START_PATH } from '@partner-gateway/contract/paths';
import { useEffect, useState } from 'preact/hooks';
import { adminWithToken, ApiError, probe } from '../api';
import { Field, FormAlert } from '../components/forms';
import { PageTitle } from '../components/page';
import { saveToken } from '../session';

/**
 * Two ways in: single sign-on through the provider's identity provider (when the gateway has OIDC_ISSUER), which
 * ends with the gateway's session cookie; or a token (an operator's personal token, or ADMIN_TOKEN) proven once
 * (GET /admin/v1/me) and kept for this tab, sent in the Authorization header of every call.
 */
export function SignIn({ reason, onSignedIn }: { reason: string | null; onSignedIn: () => void }) {
  const [token, setToken] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [formError, setFormError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [sso, setSso] = useState(false);

  useEffect(() => {
    probe.session.signInOptions().then(
      (options) => setSso(options.sso),
      () => setSso(false),
    );
  }, []);

  async function submit(event: Event) {
    event.preventDefault();
    setError(null);
    setFormError(null);
    const candidate = token.trim();
    if (!candidate) {
      setError('Enter your personal token or the admin token.');
      return;
    }
    setBusy(true);
    try {
      await adminWithToken(candidate).session.me();
      saveToken(candidate);
      onSignedIn();
    } catch (failure) {
      if (failure instanceof ApiError && failure.status === 401) setError('The gateway refused this token. Check it and try again.');
      else setFormError(failure instanceof ApiError ? failure.description : String(failure));
    } finally {
      setBusy(false);
    }
  }

  return (
    <main id="main" class="sign-in">
      <PageTitle title="Sign in">Partner Gateway admin console</PageTitle>
      {reason && (
        <p class="notice" role="status">
          {reason}
        </p>
      )}
      {sso && (
        <section aria-labelledby="sso-heading">
          <h2 id="sso-heading">Single sign-on</h2>
          <p>Sign in with your organisation's account; your role comes from your groups there.</p>
          <p>
            <a class="button primary" href={SSO_START_PATH}>
              Sign in with single sign-on
            </a>
          </p>
          <h2>Or with a token</h2>
        </section>
      )}
      <FormAlert errors={formError ? [formError] : []} title="Could not sign in" />
      <form onSubmit={submit} noValidate>
        <Field
          id="admin-token"
          label="Personal or admin token"
          hint={
            <>
              Your personal token (<code>pgw_…</code>, made under Operators or with <code>partner-gateway token create</code>), or the gateway's <code>ADMIN_TOKEN</code>{' '}
              (<code>DATA_DIR/admin-token</code>). It is kept for this tab only and forgotten when the tab is closed.
            </>
          }
          errors={error ? [error] : []}
        >
          {(control) => (
            <input {...control} type="password" autoComplete="off" spellcheck={false} value={token} onInput={(event) => setToken(event.currentTarget.value)} />
          )}
        </Field>
        <div class="actions">
          <button type="submit" class="primary" disabled={busy}>
            {busy ? 'Signing in…' : 'Sign in'}
          </button>
        </div>
      </form>
    </main>
  );
}
