import type { WebhookAttemptList, WebhookEndpointCreated, WebhookEndpointList } from '@partner-gateway/contract/admin-webhooks';
import { SELF_WEBHOOK_ATTEMPTS_PATH, SELF_WEBHOOK_REPLAY_PATH, SELF_WEBHOOK_ROTATE_PATH, SELF_WEBHOOKS_PATH, selfWebhookPath } from '@partner-gateway/contract/paths';
import { useEffect, useState } from 'preact/hooks';
import { call } from './portal-api';
import { useAttempt } from './use-attempt';
import type { WordKey } from './words';

/** The partner's webhook endpoints: register one (its signing material shown once) and see each one's deliveries. */
export function WebhooksSection({ admin, words }: { admin: boolean; words: (key: WordKey) => string }) {
  const [endpoints, setEndpoints] = useState<WebhookEndpointList['endpoints']>([]);
  const [url, setUrl] = useState('');
  const [created, setCreated] = useState<WebhookEndpointCreated>();
  const [attempts, setAttempts] = useState<{ id: string; list: WebhookAttemptList['attempts'] }>();
  const { problem, attempt } = useAttempt();
  const load = async () => setEndpoints((await call<WebhookEndpointList>('GET', SELF_WEBHOOKS_PATH)).endpoints);
  useEffect(() => void attempt(load), []);
  const register = (event: Event) => {
    event.preventDefault();
    void attempt(async () => {
      setCreated(await call<WebhookEndpointCreated>('POST', SELF_WEBHOOKS_PATH, { url }));
      setUrl('');
      await load();
    });
  };
  const showDeliveries = async (id: string) =>
    setAttempts({ id, list: (await call<WebhookAttemptList>('GET', `${selfWebhookPath(SELF_WEBHOOK_ATTEMPTS_PATH, id)}?limit=20`)).attempts });
  return (
    <section aria-labelledby="webhooks">
      <h2 id="webhooks">{words('webhooks')}</h2>
      <ul data-testid="webhooks">
        {endpoints.map((endpoint) => (
          <li key={endpoint.id}>
            {endpoint.url} · {endpoint.status}{' '}
            <button type="button" onClick={() => void attempt(() => showDeliveries(endpoint.id))}>{words('deliveries')}</button>
            {admin && (
              <>
                {' '}
                <button type="button" onClick={() => void attempt(async () => setCreated(await call<WebhookEndpointCreated>('POST', selfWebhookPath(SELF_WEBHOOK_ROTATE_PATH, endpoint.id), {})))}>
                  {words('rotateSecret')}
                </button>{' '}
                <button type="button" onClick={() => void attempt(async () => {
                  await call('POST', selfWebhookPath(SELF_WEBHOOK_REPLAY_PATH, endpoint.id), { since: new Date(Date.now() - 86_400_000).toISOString() });
                  await showDeliveries(endpoint.id);
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
        <form onSubmit={register}>
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
