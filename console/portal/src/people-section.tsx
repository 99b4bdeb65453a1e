import { SELF_INVITATIONS_PATH, SELF_USER_PATH, SELF_USERS_PATH } from '@partner-gateway/contract/paths';
import type { InvitationCreated, PartnerUserList, PartnerUserRole } from '@partner-gateway/contract/partner-users';
import { useEffect, useState } from 'preact/hooks';
import { call } from './portal-api';
import { useAttempt } from './use-attempt';
import type { WordKey } from './words';

/** The partner's people: a partner-admin invites (the link shown once), changes roles and removes. */
export function PeopleSection({ admin, words }: { admin: boolean; words: (key: WordKey) => string }) {
  const [people, setPeople] = useState<PartnerUserList>({ users: [], invitations: [] });
  const [name, setName] = useState('');
  const [role, setRole] = useState<PartnerUserRole>('partner-developer');
  const [link, setLink] = useState('');
  const { problem, attempt } = useAttempt();
  const load = async () => setPeople(await call<PartnerUserList>('GET', SELF_USERS_PATH));
  useEffect(() => void attempt(load), []);
  /** A change, then the list again. */
  const change = (work: () => Promise<unknown>) =>
    attempt(async () => {
      await work();
      await load();
    });
  const path = (id: string) => SELF_USER_PATH.replace(':id', encodeURIComponent(id));
  return (
    <section aria-labelledby="people">
      <h2 id="people">{words('people')}</h2>
      <ul data-testid="people">
        {people.users.map((user) => (
          <li key={user.id}>
            {user.name} · {user.role} · {user.passkeys}
            {admin && (
              <>
                {' '}
                <button type="button" onClick={() => void change(() => call('PUT', path(user.id), { role: user.role === 'partner-admin' ? 'partner-developer' : 'partner-admin' }))}>
                  {user.role === 'partner-admin' ? 'partner-developer' : 'partner-admin'}
                </button>{' '}
                <button type="button" onClick={() => void change(() => call('DELETE', path(user.id)))}>{words('remove')}</button>
              </>
            )}
          </li>
        ))}
      </ul>
      {admin && (
        <form
          onSubmit={(event) => {
            event.preventDefault();
            void change(async () => setLink((await call<InvitationCreated>('POST', SELF_INVITATIONS_PATH, { name, role })).url));
          }}
        >
          <label>
            {words('name')}
            <input value={name} onInput={(event) => setName(event.currentTarget.value)} required maxLength={100} />
          </label>
          <label>
            {words('role')}
            <select value={role} onChange={(event) => setRole(event.currentTarget.value as PartnerUserRole)}>
              <option value="partner-developer">partner-developer</option>
              <option value="partner-admin">partner-admin</option>
            </select>
          </label>
          <button type="submit">{words('invite')}</button>
        </form>
      )}
      {link && (
        <p>
          {words('link')}: <output data-testid="invitation-link">{link}</output>
        </p>
      )}
      {problem && <p role="alert">{problem}</p>}
    </section>
  );
}
