import { useState } from 'preact/hooks';
import type { PartnerUserRole } from '@partner-gateway/contract/partner-users';
import { admin } from '../api';
import { useCan } from '../identity';
import { FormAlert } from './forms';
import { LoadState, useLoad } from './page';
import { Time } from './time';
import { useMutation } from './use-mutation';

/**
 * A partner's people in the portal (GET /admin/v1/partners/{login}/users) and, for an operator who may change
 * partners, an invitation whose single-use link is shown once, to be handed to the person: the first partner-admin,
 * or a person who lost every passkey (recovery keeps their role).
 */
export function PartnerPeople({ login }: { login: string }) {
  const loaded = useLoad(() => admin.partnerUsers.list(login), `people-${login}`);
  const canWrite = useCan('partners.write');
  const [name, setName] = useState('');
  const [role, setRole] = useState<PartnerUserRole>('partner-admin');
  const [link, setLink] = useState('');
  const invite = useMutation(['name', 'role']);
  return (
    <section aria-labelledby="partner-people-title">
      <h2 id="partner-people-title">People in the partner portal</h2>
      <LoadState loaded={loaded} what="people" />
      {loaded.data && loaded.data.users.length + loaded.data.invitations.length === 0 && <p class="muted">Nobody yet: invite the partner's first partner-admin.</p>}
      {loaded.data && loaded.data.users.length + loaded.data.invitations.length > 0 && (
        <table data-testid="partner-people">
          <caption class="visually-hidden">People of {login} in the portal</caption>
          <thead>
            <tr>
              <th scope="col">Name</th>
              <th scope="col">Role</th>
              <th scope="col">State</th>
            </tr>
          </thead>
          <tbody>
            {loaded.data.users.map((user) => (
              <tr key={user.id}>
                <th scope="row">{user.name}</th>
                <td>{user.role}</td>
                <td>
                  {user.passkeys} passkey(s), {user.lastSignInAt ? <>last signed in <Time value={user.lastSignInAt} /></> : 'never signed in'}
                </td>
              </tr>
            ))}
            {loaded.data.invitations.map((invitation) => (
              <tr key={invitation.id}>
                <th scope="row">{invitation.name}</th>
                <td>{invitation.role}</td>
                <td>
                  {invitation.recovery ? 'recovery invited' : 'invited'}, until <Time value={invitation.expiresAt} />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {canWrite && (
        <form
          onSubmit={(event) => {
            event.preventDefault();
            void invite.run(() => admin.partnerUsers.invite(login, { name, role }), async (created) => {
              setLink(created.url);
              setName('');
              await loaded.reload();
            });
          }}
        >
          <label>
            Name (e-mail)
            <input value={name} onInput={(event) => setName(event.currentTarget.value)} required maxLength={100} />
          </label>
          <label>
            Role
            <select value={role} onChange={(event) => setRole(event.currentTarget.value as PartnerUserRole)}>
              <option value="partner-admin">partner-admin</option>
              <option value="partner-developer">partner-developer</option>
            </select>
          </label>
          <button type="submit" disabled={invite.busy}>
            Invite
          </button>
          <FormAlert errors={[...invite.errors.form, ...Object.values(invite.errors.fields).flat()]} title="The invitation was refused" />
        </form>
      )}
      {link && (
        <p data-testid="partner-invitation-link">
          Single-use link, shown only this once (valid 72 hours): <code>{link}</code>. Give it to the person only.
        </p>
      )}
    </section>
  );
}
