import { SELF_KEYS_PATH } from '@partner-gateway/contract/paths';
import type { RotateKeyResponse, SelfKeysResponse } from '@partner-gateway/contract/self-service';
import { useEffect, useState } from 'preact/hooks';
import { call, wordsOf } from './portal-api';
import type { WordKey } from './words';

/** The partner's signing keys, and a rotation with an overlap window (hours) for a partner-admin. */
export function KeysSection({ admin, words }: { admin: boolean; words: (key: WordKey) => string }) {
  const [keys, setKeys] = useState<SelfKeysResponse['keys']>([]);
  const [jwk, setJwk] = useState('');
  const [hours, setHours] = useState('24');
  const [problem, setProblem] = useState('');
  const load = () => call<SelfKeysResponse>('GET', SELF_KEYS_PATH).then((body) => setKeys(body.keys), (error: unknown) => setProblem(wordsOf(error)));
  useEffect(() => void load(), []);
  const rotate = async (event: Event) => {
    event.preventDefault();
    setProblem('');
    try {
      const key = JSON.parse(jwk) as Record<string, unknown>;
      const answer = await call<RotateKeyResponse>('POST', SELF_KEYS_PATH, { key, overlapSeconds: Math.round(Number(hours) * 3600) });
      setKeys(answer.keys);
      setJwk('');
    } catch (error) {
      setProblem(error instanceof SyntaxError ? 'The key is not JSON' : wordsOf(error));
    }
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
        <form onSubmit={(event) => void rotate(event)}>
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
