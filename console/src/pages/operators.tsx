import type { OperatorRole } from '@partner-gateway/contract/admin-permissions';
import { useState } from 'preact/hooks';
import { announce } from '../announce';
import { admin } from '../api';
import { Field, FormAlert, noErrors } from '../components/forms';
import { useMutation } from '../components/use-mutation';
import { LoadState, PageTitle, useLoad } from '../components/page';
import { RoleSelect } from '../components/role-select';
import { Time } from '../components/time';
import { useCan, useIdentity } from '../identity';

/** The people who use the console and the admin API, their roles, and (security) a new one. */
export function OperatorsPage() {
  const operators = useLoad(() => admin.operators.list().then((body) => body.operators), 'operators');
  const can = useCan('operators.write');
  const me = useIdentity();
  return (
    <>
      <PageTitle title="Operators" />
      <p>
        Each person has an operator with a role: <strong>viewer</strong> reads everything but secrets, <strong>operator</strong> changes partners (not their credentials) and the bank
        list, <strong>security</strong> changes credentials, keys and operators. Single sign-on creates an operator at its first sign-in.
      </p>
      {me?.role && (
        <p>
          <a href={`#/operator/${encodeURIComponent(me.id)}`}>Your personal tokens</a>
        </p>
      )}
      {can && <NewOperatorForm onCreated={operators.reload} />}
      <LoadState loaded={operators} what="operators" />
      {operators.data && (
        <div class="table-scroll">
          <table>
            <caption class="visually-hidden">Operators</caption>
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">Role</th>
                <th scope="col">Status</th>
                <th scope="col">Signs in with</th>
                <th scope="col">Created</th>
                <th scope="col">Last used</th>
              </tr>
            </thead>
            <tbody>
              {operators.data.map((operator) => (
                <tr key={operator.id}>
                  <td>
                    <a href={`#/operator/${encodeURIComponent(operator.id)}`}>{operator.name}</a>
                  </td>
                  <td>{operator.role}</td>
                  <td>
                    <span class={`badge badge-${operator.status === 'active' ? 'success' : 'failure'}`}>{operator.status}</span>
                  </td>
                  <td>{operator.source === 'sso' ? 'single sign-on' : 'personal tokens'}</td>
                  <td>
                    <Time value={operator.createdAt} />
                  </td>
                  <td>{operator.lastUsedAt ? <Time value={operator.lastUsedAt} /> : <span class="muted">never</span>}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </>
  );
}

function NewOperatorForm({ onCreated }: { onCreated: () => Promise<void> }) {
  const [name, setName] = useState('');
  const [role, setRole] = useState<OperatorRole>('viewer');
  const { busy, errors, setErrors, run } = useMutation(['name', 'role'], 'name');

  async function submit(event: Event) {
    event.preventDefault();
    if (!name.trim()) {
      setErrors({ fields: { name: ['Enter a name.'] }, form: [] });
      return;
    }
    setErrors(noErrors);
    await run(async () => {
      const created = await admin.operators.create({ name: name.trim(), role });
      announce(`Operator ${created.name} created with the ${created.role} role: give it a personal token from its page.`);
      setName('');
      await onCreated();
    });
  }

  return (
    <form class="inline-form" aria-label="New operator" onSubmit={submit} noValidate>
      <FormAlert errors={errors.form} title="The operator was not created" />
      <Field id="operator-name" label="New operator's name" errors={errors.fields.name}>
        {(control) => <input {...control} value={name} maxLength={100} onInput={(event) => setName(event.currentTarget.value)} />}
      </Field>
      <RoleSelect id="operator-role" value={role} onChange={setRole} errors={errors.fields.role} />
      <div class="actions">
        <button type="submit" class="primary" disabled={busy}>
          Create operator
        </button>
      </div>
    </form>
  );
}
