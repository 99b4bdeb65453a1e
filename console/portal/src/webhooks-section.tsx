import type { WebhookAttemptList, WebhookEndpointCreated, WebhookEndpointList } from '@partner-gateway/contract/admin-webhooks';
import { SELF_WEBHOOK_ATTEMPTS_PATH, SELF_WEBHOOK_REPLAY_PATH, SELF_WEBHOOK_ROTATE_PATH, SELF_WEBHOOKS_PATH, selfWebhookPath } from '@partner-gateway/contract/paths';
import { useEffect, useState } from 'preact/hooks';
import { call, wordsOf } from './portal-api';
import type { WordKey } from './words';

/** The partner's webhook endpoints: register one (its signing material shown once) and see each one's deliveries. */
export function WebhooksSection({ admin, words }: { admin: boolean; words: (key: WordKey) => string }) {
  const [endpoints, setEndpoints] = useState<WebhookEndpointList['endpoints']>([]);
  const [url, setUrl] = useState('');
  const [created, setCreated] = useState<WebhookEndpointCreated>();
  const [attempts, setAttempts] = useState<{ id: string; list: WebhookAttemptList['attempts'] }>();
  const [problem, setProblem] = useState('');
  const load = () => call<WebhookEndpointList>('GET', SELF_WEBHOOKS_PATH).then((body) => setEndpoints(body.endpoints), (error: unknown) => setProblem(wordsOf(error)));
  useEffect(() => void load(), []);
  const register = async (event: Event) => {
    event.preventDefault();
    setProblem('');
    try {
      setCreated(await call<WebhookEndpointCreated>('POST', SELF_WEBHOOKS_PATH, { url }));
      setUrl('');
      await load();
    } catch (error) {
      setProblem(wordsOf(error));
    }
  };
  const attempt = async (work: () => Promise<void>) => {
    setProblem('');
    try {
      await work();
    } catch (error) {
      setProblem(wordsOf(error));
    }
  };
  const deliveries = async (id: string) => {
    try {
      setAttempts({ id, list: (await call<WebhookAttemptList>('GET', `${selfWebhookPath(SELF_WEBHOOK_ATTEMPTS_PATH, id)}?limit=20`)).attempts });
    } catch (error) {
      setProblem(wordsOf(error));
    }
  };
  return (
    <section aria-labelledby="webhooks">
      <h2 id="webhooks">{words('webhooks')}</h2>
      <ul data-testid="webhooks">
        {endpoints.map((endpoint) => (
          <li key={endpoint.id}>
            {endpoint.url} · {endpoint.status}{' '}
            <button type="button" onClick={() => void deliveries(endpoint.id)}>{words('deliveries')}</button>
            {admin && (
              <>
                {' '}
                <button type="button" onClick={() => void attempt(async () => setCreated(await call<WebhookEndpointCreated>('POST', selfWebhookPath(SELF_WEBHOOK_ROTATE_PATH, endpoint.id), {})))}>
                  {words('rotateSecret')}
                </button>{' '}
                <button type="button" onClick={() => void attempt(async () => {
                  await call('POST', selfWebhookPath(SELF_WEBHOOK_REPLAY_PATH, endpoint.id), { since: new Date(Date.now() - 86_400_000).toISOString() });
                  await deliveries(endpoint.id);
                })}>
                  {words('replay')}
                </button>
              </>
            )}
          </li>
        ))}
      </ul>
      {created && (
        <p data-testid="webhook-material">
          {words('shownOnce')}: <code>{created.secret ?? created.endpoint.publicKey}</code>
        </p>
      )}
      {attempts && (
        <table data-testid="deliveries">
          <tbody>
            {attempts.list.map((attempt) => (
              <tr key={attempt.deliveryId + attempt.at}>
                <td>{attempt.at}</td>
                <td>{attempt.eventId}</td>
                <td>{attempt.outcome}</td>
                <td>{attempt.statusCode ?? attempt.error ?? ''}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {admin && (
        <form onSubmit={(event) => void register(event)}>
          <label>
            {words('url')}
            <input type="url" value={url} onInput={(event) => setUrl(event.currentTarget.value)} required maxLength={2048} />
          </label>
          <button type="submit">{words('register')}</button>
        </form>
      )}
      {problem && <p role="alert">{problem}</p>}
    </section>
  );
}
