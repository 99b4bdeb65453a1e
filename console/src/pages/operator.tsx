import type { CreatedToken, OperatorView, TokenView } from '@partner-gateway/contract/admin-operators';
import { DEFAULT_TOKEN_DAYS, MAX_TOKEN_DAYS } from '@partner-gateway/contract/admin-operators';
import type { OperatorRole } from '@partner-gateway/contract/admin-permissions';
import { useState } from 'preact/hooks';
import { announce } from '../announce';
import { admin } from '../api';
import { ConfirmDialog } from '../components/confirm-dialog';
import { Field, FormAlert, noErrors } from '../components/forms';
import { useMutation } from '../components/use-mutation';
import { LoadState, PageTitle, useLoad } from '../components/page';
import { RoleSelect } from '../components/role-select';
import { ShownOnce } from '../components/secret';
import { Time } from '../components/time';
import { useCan, useIdentity } from '../identity';

/** One operator: its role and status (security changes them) and its personal tokens (its own, or security's to manage). */
export function OperatorPage({ id }: { id: string }) {
  const operator = useLoad(() => admin.operators.get(id), `operator-${id}`);
  const me = useIdentity();
  const canManage = useCan('operators.write');
  const own = me?.id === id;
  return (
    <>
      <PageTitle title={operator.data ? `Operator ${operator.data.name}` : 'Operator'} />
      <p>
        <a href="#/operators">All operators</a>
      </p>
      <LoadState loaded={operator} what="operator" />
      {operator.data && (
        <>
          <dl class="facts">
            <dt>Role</dt>
            <dd>{operator.data.role}</dd>
            <dt>Status</dt>
            <dd>{operator.data.status}</dd>
            <dt>Signs in with</dt>
            <dd>{operator.data.source === 'sso' ? 'single sign-on (its role follows its groups at each sign-in)' : 'personal tokens'}</dd>
            <dt>Last used</dt>
            <dd>{operator.data.lastUsedAt ? <Time value={operator.data.lastUsedAt} /> : 'never'}</dd>
          </dl>
          {canManage && !own && <SettingsForm operator={operator.data} onChanged={operator.reload} />}
          {(canManage || own) && <Tokens operatorId={id} />}
        </>
      )}
    </>
  );
}

function SettingsForm({ operator, onChanged }: { operator: OperatorView; onChanged: () => Promise<void> }) {
  const [role, setRole] = useState<OperatorRole>(operator.role);
  const [confirming, setConfirming] = useState<'role' | 'status' | null>(null);
  const { busy, errors, setErrors, run } = useMutation();
  const error = errors.form;
  const disabling = operator.status === 'active';

  async function apply() {
    setErrors(noErrors);
    await run(async () => {
      await admin.operators.update(operator.id, confirming === 'role' ? { role } : { status: disabling ? 'disabled' : 'active' });
      announce(confirming === 'role' ? `${operator.name} now has the ${role} role.` : `${operator.name} is now ${disabling ? 'disabled' : 'active'}.`);
      await onChanged();
    });
    setConfirming(null);
  }

  return (
    <section aria-labelledby="operator-settings">
      <h2 id="operator-settings">Role and status</h2>
      <FormAlert errors={error} title="The operator was not changed" />
      <form
        class="inline-form"
        onSubmit={(event) => {
          event.preventDefault();
          setConfirming('role');
        }}
      >
        <RoleSelect id="operator-new-role" value={role} onChange={setRole} />
        <div class="actions">
          <button type="submit" disabled={role === operator.role}>
            Change role…
          </button>
          <button type="button" class={disabling ? 'danger' : ''} onClick={() => setConfirming('status')}>
            {disabling ? 'Disable operator…' : 'Enable operator…'}
          </button>
        </div>
      </form>
      <ConfirmDialog
        open={confirming !== null}
        title={confirming === 'role' ? `Give ${operator.name} the ${role} role?` : `${disabling ? 'Disable' : 'Enable'} ${operator.name}?`}
        confirmLabel={confirming === 'role' ? 'Change role' : disabling ? 'Disable' : 'Enable'}
        danger={confirming === 'status' && disabling}
        busy={busy}
        onConfirm={() => void apply()}
        onCancel={() => setConfirming(null)}
      >
        <p>
          {confirming === 'role'
            ? 'The new role applies from its next request; its console sessions end.'
            : disabling
              ? 'Every token and console session of this operator is refused at once, on every instance.'
              : 'Its tokens that have not expired or been revoked work again.'}
        </p>
      </ConfirmDialog>
    </section>
  );
}

function Tokens({ operatorId }: { operatorId: string }) {
  const tokens = useLoad(() => admin.operators.tokens(operatorId).then((body) => body.tokens), `tokens-${operatorId}`);
  const [label, setLabel] = useState('');
  const [days, setDays] = useState(String(DEFAULT_TOKEN_DAYS));
  const { busy, errors, setErrors, run } = useMutation(['label', 'expiresInDays']);
  const [created, setCreated] = useState<CreatedToken | null>(null);
  const [revoking, setRevoking] = useState<TokenView | null>(null);

  async function create(event: Event) {
    event.preventDefault();
    const expiresInDays = Number(days);
    if (!label.trim()) return setErrors({ fields: { label: ['Say what the token is for.'] }, form: [] });
    if (!Number.isInteger(expiresInDays) || expiresInDays < 1 || expiresInDays > MAX_TOKEN_DAYS) return setErrors({ fields: { expiresInDays: [`From 1 to ${MAX_TOKEN_DAYS} days.`] }, form: [] });
    setErrors(noErrors);
    await run(async () => {
      setCreated(await admin.operators.createToken(operatorId, { label: label.trim(), expiresInDays }));
      setLabel('');
      await tokens.reload();
    });
  }

  async function revoke(token: TokenView) {
    await run(
      async () => {
        await admin.operators.revokeToken(operatorId, token.id);
        announce(`The token ${token.label} is revoked.`);
        await tokens.reload();
      },
      undefined,
      [],
    );
    setRevoking(null);
  }

  return (
    <section aria-labelledby="tokens-heading">
      <h2 id="tokens-heading">Personal tokens</h2>
      {created ? (
        <ShownOnce label={`Token ${created.label}`} secret={created.token} noun="token" onDone={() => setCreated(null)} />
      ) : (
        <form class="inline-form" aria-label="New personal token" onSubmit={create} noValidate>
          <FormAlert errors={errors.form} title="No token was created" />
          <Field id="token-label" label="What the token is for" errors={errors.fields.label}>
            {(control) => <input {...control} value={label} maxLength={100} onInput={(event) => setLabel(event.currentTarget.value)} />}
          </Field>
          <Field id="token-days" label="Expires in (days)" errors={errors.fields.expiresInDays}>
            {(control) => <input {...control} type="number" min={1} max={MAX_TOKEN_DAYS} value={days} onInput={(event) => setDays(event.currentTarget.value)} />}
          </Field>
          <div class="actions">
            <button type="submit" class="primary" disabled={busy}>
              Create token
            </button>
          </div>
        </form>
      )}
      <LoadState loaded={tokens} what="tokens" />
      {tokens.data && (
        <div class="table-scroll">
          <table>
            <caption class="visually-hidden">Personal tokens</caption>
            <thead>
              <tr>
                <th scope="col">For</th>
                <th scope="col">Created</th>
                <th scope="col">Expires</th>
                <th scope="col">Last used</th>
                <th scope="col">State</th>
              </tr>
            </thead>
            <tbody>
              {tokens.data.map((token) => (
                <tr key={token.id}>
                  <td>{token.label}</td>
                  <td>
                    <Time value={token.createdAt} />
                  </td>
                  <td>
                    <Time value={token.expiresAt} />
                  </td>
                  <td>{token.lastUsedAt ? <Time value={token.lastUsedAt} /> : <span class="muted">never</span>}</td>
                  <td>
                    {token.revokedAt ? (
                      <span class="muted">
                        revoked <Time value={token.revokedAt} />
                      </span>
                    ) : Date.parse(token.expiresAt) <= Date.now() ? (
                      <span class="muted">expired</span>
                    ) : (
                      <button type="button" onClick={() => setRevoking(token)}>
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
      <ConfirmDialog open={revoking !== null} title={`Revoke the token ${revoking?.label ?? ''}?`} confirmLabel="Revoke" danger busy={busy} onConfirm={() => revoking && void revoke(revoking)} onCancel={() => setRevoking(null)}>
        <p>It is refused at once, on every instance. This cannot be undone.</p>
      </ConfirmDialog>
    </section>
  );
}
