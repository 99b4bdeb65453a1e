import type { AuditEntryView as AuditEntry } from '@partner-gateway/contract/admin-audit';
import { partnerHref } from '../router';
import { AuditDetails } from './audit-details';
import { Time } from './time';

const CREDENTIALS = { token: 'personal token', sso: 'single sign-on', bootstrap: 'ADMIN_TOKEN', system: 'the gateway itself', passkey: "a partner user's passkey (portal)" } as const;

/** Audit entries, newest first, as a table with a caption for screen readers. */
export function AuditTable({ entries, caption, showPartner = true }: { entries: AuditEntry[]; caption: string; showPartner?: boolean }) {
  if (entries.length === 0) return <p class="empty">No entries.</p>;
  return (
    <div class="table-scroll">
      <table class="audit">
        <caption>{caption}</caption>
        <thead>
          <tr>
            <th scope="col">Time, request id</th>
            <th scope="col">Action</th>
            <th scope="col">Outcome</th>
            <th scope="col">Status</th>
            <th scope="col">Operator</th>
            {showPartner && <th scope="col">Partner</th>}
            <th scope="col">Client address</th>
            <th scope="col">Reason</th>
            <th scope="col">Details</th>
          </tr>
        </thead>
        <tbody>
          {entries.map((entry) => (
            <tr key={entry.id}>
              <td>
                <Time value={entry.at} />
                {entry.requestId && (
                  <a class="request-id" href={`#/audit?requestId=${encodeURIComponent(entry.requestId)}`} title="The request id (X-Request-Id): every entry of that request">
                    {entry.requestId}
                  </a>
                )}
              </td>
              <td>
                {entry.action}
                {entry.count > 1 && <span title={`${entry.count} calls, requests ${entry.requestId ?? '?'} to ${entry.lastRequestId ?? '?'}`}> ×{entry.count}</span>}
                <Marks entry={entry} />
              </td>
              <td>
                <span class={`badge badge-${entry.outcome}`}>{entry.outcome}</span>
              </td>
              <td>{entry.status ?? '—'}</td>
              <td class="operator">
                {entry.operator ? (
                  <>
                    <span>{entry.operator.name}</span> <span class="muted">({CREDENTIALS[entry.operator.credential]})</span>
                    {entry.approver && (
                      <>
                        <br />
                        <span class="muted">approved by</span> <span>{entry.approver.name}</span>
                      </>
                    )}
                  </>
                ) : (
                  '—'
                )}
              </td>
              {showPartner && <td>{entry.partner ? <a href={partnerHref(entry.partner)}>{entry.partner}</a> : '—'}</td>}
              <td>{entry.clientAddress ?? '—'}</td>
              <td>{entry.reason ?? '—'}</td>
              <td class="details">{entry.details ? <AuditDetails details={entry.details} /> : '—'}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** What kind of change an entry records, when it is not simply "made": a dry run, a proposal, an approval. */
function Marks({ entry }: { entry: AuditEntry }) {
  const details = entry.details ?? {};
  const proposal = details.proposal as { status?: string } | undefined;
  return (
    <>
      {details.dryRun === true && <span class="badge badge-dry-run"> dry run (nothing changed)</span>}
      {entry.status === 202 && proposal?.status === 'pending' && <span class="badge badge-proposal"> proposal (waits for approval)</span>}
      {entry.approver && <span class="badge badge-approved"> approved proposal</span>}
    </>
  );
}
