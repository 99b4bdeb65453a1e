import { useState } from 'preact/hooks';
import { adminWithToken, ApiError } from '../api';
import { Field, FormAlert } from '../components/forms';
import { PageTitle } from '../components/page';
import { saveToken } from '../session';

/**
 * Signing in is proving the admin token once (a read of the key list) and keeping it for this tab. Nothing
 * is stored in a cookie: every call sends the token in its Authorization header.
 */
export function SignIn({ reason, onSignedIn }: { reason: string | null; onSignedIn: () => void }) {
  const [token, setToken] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [formError, setFormError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  async function submit(event: Event) {
    event.preventDefault();
    setError(null);
    setFormError(null);
    const candidate = token.trim();
    if (!candidate) {
      setError('Enter the admin token.');
      return;
    }
    setBusy(true);
    try {
      await adminWithToken(candidate).keys.list();
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
      <FormAlert errors={formError ? [formError] : []} title="Could not sign in" />
      <form onSubmit={submit} noValidate>
        <Field
          id="admin-token"
          label="Admin token"
          hint={
            <>
              The gateway's <code>ADMIN_TOKEN</code>, or the contents of <code>DATA_DIR/admin-token</code>. It is kept for this tab only and
              forgotten when the tab is closed.
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
