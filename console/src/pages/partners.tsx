import { useEffect, useMemo, useState } from 'preact/hooks';
import type { PartnerActivity, PartnerView as Partner } from '@partner-gateway/contract/admin-partners';
import { admin } from '../api';
import { CredentialEnds } from '../components/credential-ends';
import { LoadState, PageTitle, useLoad } from '../components/page';
import { Time } from '../components/time';
import { useCan } from '../identity';
import { partnerHref } from '../router';

const PAGE_SIZE = 20;

/** The partner registry: searched and filtered in the page, 20 at a time, with each one's last call; below it, the credentials ending soon. */
export function PartnersPage() {
  const canCreate = useCan('partners.write');
  const loaded = useLoad(() => admin.partners.list().then((body) => body.partners), 'partners');
  const [search, setSearch] = useState('');
  const [status, setStatus] = useState<'' | 'active' | 'blocked'>('');
  const [page, setPage] = useState(0);

  const matching = useMemo(() => {
    const needle = search.trim().toLowerCase();
    return (loaded.data ?? [])
      .filter((partner) => !status || partner.status === status)
      .filter(
        (partner) =>
          !needle ||
          partner.login.toLowerCase().includes(needle) ||
          partner.ipAllowlist.some((entry) => entry.includes(needle)) ||
          partner.rewardTypes.some((type) => type.includes(needle)),
      )
      .sort((a, b) => a.login.localeCompare(b.login));
  }, [loaded.data, search, status]);
  const pages = Math.max(1, Math.ceil(matching.length / PAGE_SIZE));
  const current = Math.min(page, pages - 1);
  const shown = matching.slice(current * PAGE_SIZE, (current + 1) * PAGE_SIZE);

  const [activity, setActivity] = useState<Record<string, PartnerActivity['lastSuccessfulCall']>>({});
  const shownKey = shown.map((partner) => partner.login).join(',');
  useEffect(() => {
    if (!shownKey) return;
    let stale = false;
    admin.partners.activity(shownKey.split(','))
      .then((body) => {
        if (!stale) setActivity((previous) => ({ ...previous, ...Object.fromEntries(body.partners.map((entry) => [entry.login, entry.lastSuccessfulCall])) }));
      })
      .catch(() => {
        // The column then says "unknown"; the list itself is still right.
      });
    return () => {
      stale = true;
    };
  }, [shownKey]);

  return (
    <>
      <div class="page-head">
        <PageTitle title="Partners" />
        {canCreate && (
          <a class="button primary" href="#/partners/new">
            New partner
          </a>
        )}
      </div>
      <LoadState loaded={loaded} what="partners" />
      {loaded.data && (
        <>
          <form class="filters" role="search" onSubmit={(event) => event.preventDefault()}>
            <div class="field">
              <label for="partner-search">Search</label>
              <input
                id="partner-search"
                type="search"
                placeholder="Login, address or reward type"
                value={search}
                onInput={(event) => {
                  setSearch(event.currentTarget.value);
                  setPage(0);
                }}
              />
            </div>
            <div class="field">
              <label for="partner-status">Status</label>
              <select
                id="partner-status"
                value={status}
                onChange={(event) => {
                  setStatus(event.currentTarget.value as typeof status);
                  setPage(0);
                }}
              >
                <option value="">Any</option>
                <option value="active">Active</option>
                <option value="blocked">Blocked</option>
              </select>
            </div>
          </form>
          <p class="count" aria-live="polite">
            {matching.length === 0
              ? 'No partner matches.'
              : `Showing ${current * PAGE_SIZE + 1}–${current * PAGE_SIZE + shown.length} of ${matching.length} partner${matching.length === 1 ? '' : 's'}.`}
          </p>
          {shown.length > 0 && (
            <div class="table-scroll">
              <table>
                <caption class="visually-hidden">Partners</caption>
                <thead>
                  <tr>
                    <th scope="col">Login</th>
                    <th scope="col">Status</th>
                    <th scope="col">IP allowlist</th>
                    <th scope="col">Reward types</th>
                    <th scope="col">Last successful call</th>
                  </tr>
                </thead>
                <tbody>
                  {shown.map((partner) => {
                    const last = activity[partner.login];
                    return (
                      <tr key={partner.login}>
                        <th scope="row">
                          <a href={partnerHref(partner.login)}>{partner.login}</a>
                        </th>
                        <td>
                          <span class={`badge badge-${partner.status}`}>{partner.status}</span>
                        </td>
                        <td>{partner.ipAllowlist.length > 0 ? partner.ipAllowlist.join(', ') : <span class="muted">none (allows no address)</span>}</td>
                        <td>{partner.rewardTypes.length > 0 ? partner.rewardTypes.join(', ') : <span class="muted">none</span>}</td>
                        <td>
                          {last === undefined ? (
                            <span class="muted">…</span>
                          ) : last === null ? (
                            <span class="muted">never</span>
                          ) : (
                            <>
                              <Time value={last.at} /> <span class="muted">({last.action})</span>
                            </>
                          )}
                        </td>
                      </tr>
                    );
                  })}
                </tbody>
              </table>
            </div>
          )}
          {pages > 1 && (
            <nav class="pager" aria-label="Partner pages">
              <button type="button" disabled={current === 0} onClick={() => setPage(current - 1)}>
                Previous page
              </button>
              <span>
                Page {current + 1} of {pages}
              </span>
              <button type="button" disabled={current >= pages - 1} onClick={() => setPage(current + 1)}>
                Next page
              </button>
            </nav>
          )}
        </>
      )}
      <CredentialEnds />
    </>
  );
}
