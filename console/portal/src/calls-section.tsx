import { SELF_CALLS_PATH } from '@partner-gateway/contract/paths';
import type { SelfCallsResponse } from '@partner-gateway/contract/self-service';
import { useState } from 'preact/hooks';
import { call } from './portal-api';
import { useAttempt } from './use-attempt';
import type { WordKey } from './words';

/** The partner's own calls of 30 days, found by request id: each refusal with its reason in words. */
export function CallsSection({ words }: { words: (key: WordKey) => string }) {
  const [requestId, setRequestId] = useState('');
  const [calls, setCalls] = useState<SelfCallsResponse['calls'] | undefined>();
  const { problem, attempt } = useAttempt();
  const find = (event: Event) => {
    event.preventDefault();
    const query = requestId.trim() ? `?requestId=${encodeURIComponent(requestId.trim())}` : '';
    void attempt(async () => setCalls((await call<SelfCallsResponse>('GET', `${SELF_CALLS_PATH}${query}`)).calls));
  };
  return (
    <section aria-labelledby="calls">
      <h2 id="calls">{words('calls')}</h2>
      <form onSubmit={find}>
        <label>
          {words('requestId')}
          <input value={requestId} onInput={(event) => setRequestId(event.currentTarget.value)} maxLength={128} />
        </label>
        <button type="submit">{words('find')}</button>
      </form>
      {calls && calls.length === 0 && <p>{words('noCalls')}</p>}
      {calls && calls.length > 0 && (
        <table data-testid="calls">
          <tbody>
            {calls.map((each) => (
              <tr key={`${each.at}-${each.requestId}`}>
                <td>{each.at}</td>
                <td>{each.operation}</td>
                <td>{each.outcome} {each.status ?? ''}</td>
                <td>{each.explanation ?? ''}</td>
                <td>{each.requestId ?? ''}</td>
                <td>{each.clientAddress ?? ''}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {problem && <p role="alert">{problem}</p>}
    </section>
  );
}
