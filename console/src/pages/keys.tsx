import { useState } from 'preact/hooks';
import { announce } from '../announce';
import type { KeyUse, KeyView as Key } from '@partner-gateway/contract/admin-keys';
import { admin } from '../api';
import { ConfirmDialog } from '../components/confirm-dialog';
import { FormAlert, noErrors } from '../components/forms';
import { useMutation } from '../components/use-mutation';
import { LoadState, PageTitle, useLoad } from '../components/page';
import { Time } from '../components/time';
import { useCan } from '../identity';

const USES = {
  sig: {
    name: 'signing',
    purpose: 'signs access tokens (ES256)',
    grace: 'The retired key keeps verifying the tokens it signed until they expire (token lifetime + 60 s), then drops out of the JWKS.',
  },
  enc: {
    name: 'encryption',
    purpose: 'decrypts the partnerPassword JWEs partners encrypt to it (RSA-OAEP-256)',
    grace: 'The retired key keeps decrypting for its grace period (ENC_KEY_GRACE, 7 days by default), so partners that cached the JWKS keep working; then it drops out.',
  },
} as const;

/** The keys in service, newest first, and their rotation. */
export function KeysPage() {
  const keys = useLoad(() => admin.keys.list().then((body) => body.keys), 'keys');
  const [rotating, setRotating] = useState<KeyUse | null>(null);
  const { busy, errors, setErrors, run } = useMutation();
  const error = errors.form;
  const [revoking, setRevoking] = useState<Key | null>(null);
  const canChange = useCan('keys.write');

  async function revoke(key: Key) {
    setErrors(noErrors);
    await run(async () => {
      await admin.keys.revoke(key.kid);
      announce(`The ${USES[key.use].name} key ${key.kid} is revoked.`);
      await keys.reload();
    });
    setRevoking(null);
  }

  async function rotate(use: KeyUse) {
    setErrors(noErrors);
    await run(async () => {
      const key = await admin.keys.rotate(use);
      announce(`A new ${USES[use].name} key is active: ${key.kid}.`);
      await keys.reload();
    });
    setRotating(null);
  }

  const sorted = [...(keys.data ?? [])].sort((a, b) => Number(b.active) - Number(a.active) || b.createdAt.localeCompare(a.createdAt));
  return (
    <>
      <PageTitle title="Keys" />
      <p>The keys live in the database, their private halves sealed under MASTER_KEY; this page never sees a private half.</p>
      <FormAlert errors={error} title="The keys were not changed" />
      {canChange && (
        <div class="actions">
          {(['sig', 'enc'] as const).map((use) => (
            <button key={use} type="button" onClick={() => setRotating(use)}>
              Rotate the {USES[use].name} key…
            </button>
          ))}
        </div>
      )}
      <LoadState loaded={keys} what="keys" />
      {keys.data && (
        <div class="table-scroll">
          <table>
            <caption class="visually-hidden">Keys in service</caption>
            <thead>
              <tr>
                <th scope="col">Key id (kid)</th>
                <th scope="col">Use</th>
                <th scope="col">Algorithm</th>
                <th scope="col">State</th>
                <th scope="col">Created</th>
                <th scope="col">Retired</th>
                <th scope="col">Usable until</th>
                <th scope="col">
                  <span class="visually-hidden">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {sorted.map((key) => (
                <tr key={key.kid}>
                  <th scope="row">
                    <code>{key.kid}</code>
                  </th>
                  <td>{USES[key.use].name}</td>
                  <td>{key.alg}</td>
                  <td>
                    <span class={`badge ${key.active ? 'badge-active' : 'badge-retired'}`}>{key.active ? 'active' : 'retired'}</span>
                  </td>
                  <td>
                    <Time value={key.createdAt} />
                  </td>
                  <td>
                    <Time value={key.retiredAt} />
                  </td>
                  <td>{key.active ? <span class="muted">while active</span> : <Time value={key.usableUntil} />}</td>
                  <td>
                    {canChange && (
                      <button type="button" class="danger" onClick={() => setRevoking(key)} aria-label={`Revoke key ${key.kid}`}>
                        Revoke…
                      </button>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <ConfirmDialog
        open={rotating !== null}
        title={`Rotate the ${rotating ? USES[rotating].name : ''} key?`}
        confirmLabel="Rotate now"
        busy={busy}
        onConfirm={() => rotating && void rotate(rotating)}
        onCancel={() => setRotating(null)}
      >
        {rotating && (
          <>
            <p>
              A new key that {USES[rotating].purpose} becomes active at once, on every instance.
            </p>
            <p>{USES[rotating].grace}</p>
          </>
        )}
      </ConfirmDialog>
      <ConfirmDialog
        open={revoking !== null}
        title={`Revoke the ${revoking ? USES[revoking.use].name : ''} key ${revoking?.kid ?? ''}?`}
        confirmLabel="Revoke now"
        busy={busy}
        onConfirm={() => revoking && void revoke(revoking)}
        onCancel={() => setRevoking(null)}
      >
        {revoking && (
          <>
            <p>
              For a compromised key. It leaves the JWKS at once, on every instance, with no grace period:{' '}
              {revoking.use === 'sig' ? 'every access token it signed is refused.' : 'every partnerPassword JWE encrypted to it is refused.'}
            </p>
            {revoking.active && <p>It is the active key: a new {USES[revoking.use].name} key becomes active first.</p>}
          </>
        )}
      </ConfirmDialog>
    </>
  );
}
