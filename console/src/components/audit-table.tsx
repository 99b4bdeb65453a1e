import type { AuditEntryView as AuditEntry } from '@partner-gateway/contract/admin-audit';
import { partnerHref } from '../router';
import { Time } from './time';

/** Audit entries, newest first, as a table with a caption for screen readers. */
export function AuditTable({ entries, caption, showPartner = true }: { entries: AuditEntry[]; caption: string; showPartner?: boolean }) {
  if (entries.length === 0) return <p class="empty">No entries.</p>;
  return (
    <div class="table-scroll">
      <table class="audit">
        <caption>{caption}</caption>
        <thead>
          <tr>
            <th scope="col">Time</th>
            <th scope="col">Action</th>
            <th scope="col">Outcome</th>
            <th scope="col">Status</th>
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
              </td>
              <td>
                {entry.action}
                {entry.count > 1 && <span title={`${entry.count} calls, requests ${entry.requestId ?? '?'} to ${entry.lastRequestId ?? '?'}`}> ×{entry.count}</span>}
              </td>
              <td>
                <span class={`badge badge-${entry.outcome}`}>{entry.outcome}</span>
              </td>
              <td>{entry.status ?? '—'}</td>
              {showPartner && <td>{entry.partner ? <a href={partnerHref(entry.partner)}>{entry.partner}</a> : '—'}</td>}
              <td>{entry.clientAddress ?? '—'}</td>
              <td>{entry.reason ?? '—'}</td>
              <td class="details">{entry.details ? <code>{summarizeDetails(entry.details)}</code> : '—'}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** Details in one line, long lists shortened (an import lists every BIC it touched). */
function summarizeDetails(details: Record<string, unknown>): string {
  const short = Object.fromEntries(
    Object.entries(details).map(([key, value]) => [key, Array.isArray(value) && value.length > 5 ? `${value.length} items` : value]),
  );
  const text = JSON.stringify(short);
  return text.length > 200 ? `${text.slice(0, 199)}…` : text;
}
