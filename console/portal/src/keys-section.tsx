import { SELF_KEYS_PATH } from '@partner-gateway/contract/paths';
import type { RotateKeyResponse, SelfKeysResponse } from '@partner-gateway/contract/self-service';
import { useEffect, useState } from 'preact/hooks';
import { call } from './portal-api';
import { useAttempt } from './use-attempt';
import type { WordKey } from './words';

/** The partner's signing keys, and a rotation with an overlap window (hours) for a partner-admin. */
export function KeysSection({ admin, words }: { admin: boolean; words: (key: WordKey) => string }) {
  const [keys, setKeys] = useState<SelfKeysResponse['keys']>([]);
  const [jwk, setJwk] = useState('');
  const [hours, setHours] = useState('24');
  const { problem, attempt } = useAttempt();
  useEffect(() => void attempt(async () => setKeys((await call<SelfKeysResponse>('GET', SELF_KEYS_PATH)).keys)), []);
  const rotate = (event: Event) => {
    event.preventDefault();
    void attempt(async () => {
      const answer = await call<RotateKeyResponse>('POST', SELF_KEYS_PATH, { key: parseJwk(jwk), overlapSeconds: Math.round(Number(hours) * 3600) });
      setKeys(answer.keys);
      setJwk('');
    });
  };
  return (
    <section aria-labelledby="keys">
      <h2 id="keys">{words('keys')}</h2>
      <ul data-testid="keys">
        {keys.map((key) => (
          <li key={key.kid}>
            {key.kid} ({key.alg}){key.expiresAt ? ` · ${words('endsAt')} ${key.expiresAt}` : ''}
          </li>
        ))}
      </ul>
      {admin && (
        <form onSubmit={rotate}>
          <label>
            {words('newKey')}
            <textarea value={jwk} onInput={(event) => setJwk(event.currentTarget.value)} rows={4} />
          </label>
          <label>
            {words('overlapHours')}
            <input type="number" min="0" max="720" value={hours} onInput={(event) => setHours(event.currentTarget.value)} />
          </label>
          <button type="submit">{words('rotate')}</button>
        </form>
      )}
      {problem && <p role="alert">{problem}</p>}
    </section>
  );
}

/** The pasted key as an object; a paste that is not JSON is refused here, in words, before any call. */
function parseJwk(text: string): Record<string, unknown> {
  try {
    return JSON.parse(text) as Record<string, unknown>;
  } catch {
    throw new Error('The key is not JSON');
  }
}
