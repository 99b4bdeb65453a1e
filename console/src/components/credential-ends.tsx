import type { CredentialEnd } from '@partner-gateway/contract/admin-credential-ends';
import { admin } from '../api';
import { partnerHref } from '../router';
import { LoadState, useLoad } from './page';
import { Time } from './time';

const DAYS = 30;

/** Each kind of credential in words, with what ends it. */
const KINDS: Record<CredentialEnd['credential'], string> = {
  key: 'private_key_jwt key (its overlap window)',
  certificate: 'client certificate',
  password: 'previous API password (its overlap window)',
};

/**
 * The partners' credentials that stop working by themselves within 30 days, soonest first
 * (GET /admin/v1/credential-ends): what to expect calls about, and where to cut a window short (the partner's page).
 */
export function CredentialEnds() {
  const loaded = useLoad(() => admin.partners.credentialEnds({ days: String(DAYS) }), 'credential-ends');
  return (
    <section aria-labelledby="credential-ends-title">
      <h2 id="credential-ends-title">Credentials ending within {DAYS} days</h2>
      <LoadState loaded={loaded} what="credential ends" />
      {loaded.data && loaded.data.ends.length === 0 && <p class="muted">None: no key, certificate or replaced password ends by itself within {DAYS} days.</p>}
      {loaded.data && loaded.data.ends.length > 0 && (
        <div class="table-scroll">
          <table data-testid="credential-ends">
            <caption class="visually-hidden">Credentials ending within {DAYS} days</caption>
            <thead>
              <tr>
                <th scope="col">Ends</th>
                <th scope="col">Partner</th>
                <th scope="col">Credential</th>
                <th scope="col">Id</th>
              </tr>
            </thead>
            <tbody>
              {loaded.data.ends.map((end) => (
                <tr key={`${end.partner} ${end.credential} ${end.id}`}>
                  <td>
                    <Time value={end.endsAt} />
                  </td>
                  <th scope="row">
                    <a href={partnerHref(end.partner)}>{end.partner}</a>
                  </th>
                  <td>{KINDS[end.credential]}</td>
                  <td>
                    <code>{end.id}</code>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
          {loaded.data.more && <p class="muted">More end within {DAYS} days than shown here: see partner-gateway partner credential-ends --limit 1000.</p>}
        </div>
      )}
    </section>
  );
}
