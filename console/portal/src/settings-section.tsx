import { SELF_ALLOWLIST_PATH, SELF_SETTINGS_PATH } from '@partner-gateway/contract/paths';
import type { SelfSettings } from '@partner-gateway/contract/self-service';
import { useEffect, useState } from 'preact/hooks';
import { call } from './portal-api';
import { useAttempt } from './use-attempt';
import type { WordKey } from './words';

/** The partner's settings, read-only but for the IP allowlist when an operator lets the partner manage it (a partner-admin then edits it). */
export function SettingsSection({ admin, words }: { admin: boolean; words: (key: WordKey) => string }) {
  const [settings, setSettings] = useState<SelfSettings>();
  const [allowlist, setAllowlist] = useState('');
  const { problem, attempt } = useAttempt();
  useEffect(
    () =>
      void attempt(async () => {
        const body = await call<SelfSettings>('GET', SELF_SETTINGS_PATH);
        setSettings(body);
        setAllowlist(body.ipAllowlist.join('\n'));
      }),
    [],
  );
  const save = (event: Event) => {
    event.preventDefault();
    const ipAllowlist = allowlist.split(/[\s,]+/).filter(Boolean);
    void attempt(async () => setSettings(await call<SelfSettings>('PUT', SELF_ALLOWLIST_PATH, { ipAllowlist })));
  };
  return (
    <section aria-labelledby="settings">
      <h2 id="settings">{words('settings')}</h2>
      {settings && (
        <dl data-testid="settings">
          <dt>login</dt>
          <dd>{settings.login}</dd>
          <dt>status</dt>
          <dd>{settings.status}</dd>
          <dt>rewardTypes</dt>
          <dd>{settings.rewardTypes.join(', ')}</dd>
          <dt>authMethods</dt>
          <dd>{settings.authMethods.join(', ')}</dd>
          <dt>ipAllowlist</dt>
          <dd>{settings.ipAllowlist.join(', ')}</dd>
        </dl>
      )}
      {settings?.selfManagedAllowlist && admin && (
        <form onSubmit={save}>
          <label>
            {words('allowlist')}
            <textarea value={allowlist} onInput={(event) => setAllowlist(event.currentTarget.value)} rows={4} />
          </label>
          <button type="submit">{words('save')}</button>
        </form>
      )}
      {problem && <p role="alert">{problem}</p>}
    </section>
  );
}
