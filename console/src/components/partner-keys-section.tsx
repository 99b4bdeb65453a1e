import type { PartnerJwksView, PartnerKeyView, SetPartnerJwksBody } from '@partner-gateway/contract/admin-partner-keys';
import type { PartnerView } from '@partner-gateway/contract/admin-partners';
import { describeProblem } from '@partner-gateway/contract/error-body';
import { useState } from 'preact/hooks';
import { admin } from '../api';
import { Field } from './forms';
import { ItemTable, type PartnerSubresource, type SubresourceFormProps } from './partner-subresource-section';
import { Time } from './time';

type Source = 'keys' | 'jwksUri';

/**
 * A partner's public keys for private_key_jwt: the registered ones (kid, type, alg, thumbprint) or the URL it
 * publishes them at and when they were last fetched; registering new ones (a pasted JWK Set or a URL) replaces
 * them, and they can be removed. The page never sees more of a key than its public identity.
 */
export const partnerKeys: PartnerSubresource<SetPartnerJwksBody, PartnerJwksView> = {
  id: 'keys',
  title: 'Public keys',
  noun: 'keys',
  viewOf: (partner) => partner.jwks,
  none: 'No keys registered: the partner cannot use private_key_jwt.',
  Registered: RegisteredKeys,
  Form: KeysForm,
  refused: 'The keys were not registered',
  removal: 'Its private_key_jwt assertions are refused from the next request on, until new keys are registered, and every token it holds stops working.',
  // Each refused key is named (`keys[2] (kid "k3"): ...`); a refused URL needs no name under its own field.
  problemText: (problem) => (problem.field?.startsWith('keys[') ? describeProblem(problem) : problem.message),
  set: (login, body) => admin.partners.setJwks(login, body),
  remove: (login) => admin.partners.deleteJwks(login),
};

function RegisteredKeys({ view: jwks, partner }: { view: PartnerJwksView; partner: PartnerView }) {
  return (
    <>
      {jwks.jwksUri !== null && (
        <dl class="summary">
          <dt>Published at</dt>
          <dd>
            <code data-testid="partner-jwks-uri">{jwks.jwksUri}</code>
          </dd>
          <dt>Last fetched</dt>
          <dd>{jwks.fetchedAt ? <Time value={jwks.fetchedAt} /> : 'never'}</dd>
        </dl>
      )}
      <ItemTable caption={`Public keys of ${partner.login}`} columns={['Key id (kid)', 'Type', 'Algorithm', 'Thumbprint (SHA-256)']}>
        {jwks.keys.map((key) => (
          <tr key={key.thumbprint}>
            <th scope="row">
              <code>{key.kid}</code>
            </th>
            <td>{keyType(key)}</td>
            <td>{key.alg}</td>
            <td>
              <code>{key.thumbprint}</code>
            </td>
          </tr>
        ))}
      </ItemTable>
    </>
  );
}

function KeysForm({ partner, busy, errors, save, refuse }: SubresourceFormProps<SetPartnerJwksBody, PartnerJwksView>) {
  const [source, setSource] = useState<Source>(partner.jwks?.jwksUri ? 'jwksUri' : 'keys');
  const [pasted, setPasted] = useState('');
  const [uri, setUri] = useState(partner.jwks?.jwksUri ?? '');

  async function submit(event: Event) {
    event.preventDefault();
    const body = source === 'jwksUri' ? readUri(uri) : readPasted(pasted);
    if ('problem' in body) return refuse(source, body.problem);
    const saved = await save(body, source, (view) => `${view.keys.length} key${view.keys.length === 1 ? '' : 's'} of ${partner.login} registered.`);
    if (saved) setPasted('');
  }

  return (
    <form onSubmit={submit} noValidate class="form">
      <fieldset>
        <legend>Source</legend>
        <label class="choice">
          <input type="radio" name="jwks-source" value="keys" checked={source === 'keys'} onChange={() => setSource('keys')} /> Paste the public keys (a JWK Set or one JWK)
        </label>
        <label class="choice">
          <input type="radio" name="jwks-source" value="jwksUri" checked={source === 'jwksUri'} onChange={() => setSource('jwksUri')} /> The https URL where the partner publishes them
        </label>
      </fieldset>
      {source === 'keys' ? (
        <Field id="keys" label="JWK Set" hint='{"keys": [...]}: EC P-256, Ed25519 or RSA of at least 2048 bits, public members only. Replaces the keys registered now; leaving one out ends the partner’s current sessions.' errors={errors.fields.keys}>
          {(control) => <textarea {...control} rows={6} spellcheck={false} value={pasted} onInput={(event) => setPasted(event.currentTarget.value)} />}
        </Field>
      ) : (
        <Field id="jwksUri" label="JWK Set URL" hint="Fetched once now (5 s, 64 KiB) and then as its Cache-Control says, within 5 minutes to 24 hours." errors={errors.fields.jwksUri}>
          {(control) => <input {...control} type="url" spellcheck={false} value={uri} onInput={(event) => setUri(event.currentTarget.value)} />}
        </Field>
      )}
      <div class="actions">
        <button type="submit" class="primary" disabled={busy}>
          {busy ? 'Registering…' : 'Register keys'}
        </button>
      </div>
    </form>
  );
}

function keyType(key: PartnerKeyView): string {
  return key.kty === 'RSA' ? `RSA ${key.size ?? '?'} bits` : `${key.kty} ${key.crv ?? ''}`.trim();
}

function readUri(text: string): SetPartnerJwksBody | { problem: string } {
  const trimmed = text.trim();
  return /^https?:\/\/\S+$/i.test(trimmed) ? { jwksUri: trimmed } : { problem: 'Enter an https URL.' };
}

/** A pasted JWK Set `{"keys": [...]}` or a single JWK; the gateway checks each key. */
function readPasted(text: string): SetPartnerJwksBody | { problem: string } {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return { problem: 'This is not JSON: paste a JWK Set {"keys": [...]} or one JWK.' };
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return { problem: 'Paste a JWK Set {"keys": [...]} or one JWK.' };
  const record = parsed as Record<string, unknown>;
  if (Array.isArray(record.keys) && record.keys.length === 0) return { problem: 'This JWK Set holds no key: paste at least one public key.' };
  if (Array.isArray(record.keys)) return { keys: record.keys as NonNullable<SetPartnerJwksBody['keys']> };
  if (typeof record.kty === 'string') return { keys: [record] };
  return { problem: 'Paste a JWK Set {"keys": [...]} or one JWK.' };
}
