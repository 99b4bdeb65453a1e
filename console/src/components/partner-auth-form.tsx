import { AUTH_METHODS, type AuthMethod, type PartnerView, type UpdatePartnerBody } from '@partner-gateway/contract/admin-partners';
import { useState } from 'preact/hooks';
import { announce } from '../announce';
import { admin } from '../api';
import { FormAlert } from './forms';
import { useMutation } from './use-mutation';

const METHOD_TEXT: Record<AuthMethod, string> = {
  password: 'password: the API password (login, the encrypted-password banks call, client_secret_basic/post)',
  private_key_jwt: 'private_key_jwt: an assertion signed with one of the partner’s registered keys',
  self_signed_tls_client_auth: 'self_signed_tls_client_auth: mutual TLS with one of the partner’s registered certificates',
  tls_client_auth: 'tls_client_auth: mutual TLS with a certificate a configured CA issued to the partner’s subject DN',
};

/**
 * How a partner may authenticate and whether its tokens must be bound to its key, saved with one PATCH. Taking
 * the password away or requiring binding ends the partner's current sessions (the gateway does it).
 */
export function PartnerAuthForm({ partner, onSaved }: { partner: PartnerView; onSaved: () => Promise<void> }) {
  const [methods, setMethods] = useState<AuthMethod[]>(partner.authMethods);
  const [bound, setBound] = useState(partner.requireSenderConstrainedTokens);
  const { busy, errors, setErrors, run } = useMutation(['authMethods', 'requireSenderConstrainedTokens']);
  const toggle = (method: AuthMethod, on: boolean) => setMethods(AUTH_METHODS.filter((known) => (known === method ? on : methods.includes(known))));

  async function submit(event: Event) {
    event.preventDefault();
    if (methods.length === 0) {
      setErrors({ fields: { authMethods: ['Tick at least one method.'] }, form: [] });
      return;
    }
    await run(async () => {
      const change: UpdatePartnerBody = { authMethods: methods, requireSenderConstrainedTokens: bound };
      await admin.partners.update(partner.login, change);
      announce(`The authentication of ${partner.login} was saved: ${methods.join(', ')}${bound ? ', bound tokens required' : ''}.`);
      await onSaved();
    });
  }

  const methodErrors = errors.fields.authMethods ?? [];
  const keyless = methods.includes('private_key_jwt') && partner.jwks === null;
  return (
    <section aria-labelledby="auth-title">
      <h2 id="auth-title">Authentication</h2>
      <FormAlert errors={errors.form} title="The authentication was not saved" />
      <form onSubmit={submit} noValidate class="form">
        <fieldset class={methodErrors.length > 0 ? 'field-invalid' : ''} aria-describedby={methodErrors.length > 0 ? 'authMethods-error' : undefined}>
          <legend>Methods</legend>
          {AUTH_METHODS.map((method) => (
            <label class="choice" key={method}>
              <input type="checkbox" name="authMethods" value={method} checked={methods.includes(method)} onChange={(event) => toggle(method, event.currentTarget.checked)} />{' '}
              {METHOD_TEXT[method]}
            </label>
          ))}
          {methodErrors.length > 0 && (
            <div class="field-error" id="authMethods-error" data-field-error="authMethods">
              <p>{methodErrors.join(' ')}</p>
            </div>
          )}
        </fieldset>
        {keyless && <p class="hint">The partner has no keys yet: private_key_jwt works once they are registered below.</p>}
        <label class="choice">
          <input type="checkbox" name="requireSenderConstrainedTokens" checked={bound} onChange={(event) => setBound(event.currentTarget.checked)} /> Require
          DPoP-bound tokens: no bearer token is ever issued to this partner
        </label>
        <p class="hint">Taking the password away or requiring bound tokens ends the partner’s current sessions.</p>
        <div class="actions">
          <button type="submit" class="primary" disabled={busy}>
            {busy ? 'Saving…' : 'Save authentication'}
          </button>
        </div>
      </form>
    </section>
  );
}
