import { useState } from 'preact/hooks';
import type { AuditQuery } from '@partner-gateway/contract/admin-audit';
import { AUDIT_ACTIONS, COMMON_AUDIT_REASONS } from '@partner-gateway/contract/audit-names';
import { ADMIN_AUDIT_EXPORT_PATH } from '@partner-gateway/contract/paths';
import { withQuery } from '@partner-gateway/contract/admin-endpoint';
import { admin, ApiError, credentialHeaders } from '../api';
import { useCan } from '../identity';
import { AuditTable } from '../components/audit-table';
import { errorsFrom, Field, FormAlert, type FormErrors, noErrors } from '../components/forms';
import { PageTitle, useLoad } from '../components/page';
import { Time, utcOffset } from '../components/time';
import { navigate } from '../router';

const ACTIONS = AUDIT_ACTIONS;
const REASONS = COMMON_AUDIT_REASONS;
const FILTERS = ['partner', 'operator', 'outcome', 'action', 'reason', 'requestId', 'from', 'to', 'limit'] as const;
type Filters = Record<(typeof FILTERS)[number], string>;

/**
 * The audit trail, newest first, with the API's filters. The filters and the page live in the address
 * (`#/audit?partner=acme&outcome=failure&cursor=…`), so a search can be bookmarked and Back goes to the
 * newer page.
 */
export function AuditPage({ query }: { query: URLSearchParams }) {
  const applied = Object.fromEntries(FILTERS.map((name) => [name, query.get(name) ?? ''])) as Filters;
  const cursor = query.get('cursor') ?? '';
  const key = query.toString();
  const page = useLoad(() => admin.audit.query(withoutEmpty({ ...applied, limit: applied.limit || '50', cursor }) as AuditQuery), key);
  const apiErrors: FormErrors = page.error ? errorsFrom(page.error, FILTERS) : noErrors;

  return (
    <>
      <PageTitle title="Audit" />
      <FilterForm key={key} applied={applied} apiErrors={apiErrors} />
      <ExportForm applied={applied} />
      {page.loading && page.data === undefined && <p aria-busy="true">Loading the audit trail…</p>}
      {page.error && !(page.error instanceof ApiError && page.error.problems.length > 0) && <FormAlert errors={[page.error.description]} title="The audit trail could not be loaded" />}
      {page.data && !page.error && (
        <>
          <p class="count" aria-live="polite">
            {describeCount(page.data.total, page.data.entries.length, Boolean(cursor))}
          </p>
          <AuditTable entries={page.data.entries} caption="Audit entries, newest first" />
          <nav class="pager" aria-label="Audit pages">
            {cursor && <a href={auditHref(applied, '')}>Newest entries</a>}
            {page.data.nextCursor && <a href={auditHref(applied, page.data.nextCursor)}>Older entries</a>}
          </nav>
        </>
      )}
    </>
  );
}

/** "1 234 entries match; this page shows the newest 50." (or "More than 1 000 entries match"). */
function describeCount(total: { count: number; capped: boolean }, shown: number, older: boolean): string {
  if (total.count === 0) return 'No entries match.';
  const number = total.count.toLocaleString('en-GB');
  const matching = total.capped ? `More than ${number} entries match` : `${number} entr${total.count === 1 ? 'y matches' : 'ies match'}`;
  return shown === total.count && !older ? `${matching}.` : `${matching}; this page shows ${shown}${older ? ', older' : ', the newest'}.`;
}

/**
 * The whole trail of a time range as a file (security role): JSON lines or CSV, streamed by the gateway, saved by
 * the browser. The range defaults to the search's, else the last 24 hours.
 */
function ExportForm({ applied }: { applied: Filters }) {
  const can = useCan('audit.export');
  const [format, setFormat] = useState<'csv' | 'jsonl'>('csv');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string[]>([]);
  if (!can) return null;
  const to = applied.to || new Date().toISOString();
  const from = applied.from || new Date(Date.parse(to) - 86_400_000).toISOString();

  async function download(event: Event) {
    event.preventDefault();
    setBusy(true);
    setError([]);
    try {
      const response = await fetch(withQuery(ADMIN_AUDIT_EXPORT_PATH, { from, to, format }), { headers: credentialHeaders('GET'), credentials: 'same-origin', cache: 'no-store' });
      if (!response.ok) throw new ApiError(response.status, ((await response.json().catch(() => ({}))) as { description_status?: string }).description_status ?? `The gateway answered ${response.status}.`);
      const name = /filename="([^"]+)"/.exec(response.headers.get('content-disposition') ?? '')?.[1] ?? `audit.${format}`;
      const link = document.createElement('a');
      link.href = URL.createObjectURL(await response.blob());
      link.download = name;
      link.click();
      setTimeout(() => URL.revokeObjectURL(link.href), 60_000);
    } catch (failure) {
      setError([failure instanceof ApiError ? failure.description : String(failure)]);
    } finally {
      setBusy(false);
    }
  }

  return (
    <form class="export" aria-label="Export the audit trail" onSubmit={download}>
      <FormAlert errors={error} title="The export failed" />
      <p>
        Export every entry from <Time value={from} /> to <Time value={to} /> (the search's range, else the last 24 hours):
      </p>
      <Field id="export-format" label="Format">
        {(control) => (
          <select {...control} value={format} onChange={(event) => setFormat(event.currentTarget.value as 'csv' | 'jsonl')}>
            <option value="csv">CSV (spreadsheets)</option>
            <option value="jsonl">JSON lines</option>
          </select>
        )}
      </Field>
      <div class="actions">
        <button type="submit" disabled={busy}>
          {busy ? 'Exporting…' : 'Export'}
        </button>
      </div>
    </form>
  );
}

function auditHref(filters: Filters, cursor: string): string {
  const search = new URLSearchParams();
  for (const name of FILTERS) if (filters[name]) search.set(name, filters[name]);
  if (cursor) search.set('cursor', cursor);
  const text = search.toString();
  return text ? `#/audit?${text}` : '#/audit';
}

/** `2024-05-01T10:00:00.000Z` ↔ what a datetime-local input holds, in the browser's time zone. */
function toLocalInput(iso: string): string {
  const date = new Date(iso);
  if (!iso || Number.isNaN(date.getTime())) return '';
  const local = new Date(date.getTime() - date.getTimezoneOffset() * 60_000);
  return local.toISOString().slice(0, 16);
}

function fromLocalInput(value: string): string {
  if (!value) return '';
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? value : date.toISOString();
}

function FilterForm({ applied, apiErrors }: { applied: Filters; apiErrors: FormErrors }) {
  const [values, setValues] = useState<Filters>({ ...applied, from: toLocalInput(applied.from), to: toLocalInput(applied.to) });
  const [errors, setErrors] = useState<FormErrors>(noErrors);
  const operators = useLoad(() => admin.operators.list().then((body) => body.operators), 'operators');
  const shown = errors === noErrors ? apiErrors : errors;
  const set = (name: keyof Filters) => (event: Event) => setValues({ ...values, [name]: (event.currentTarget as HTMLInputElement).value });

  function submit(event: Event) {
    event.preventDefault();
    const next: Filters = { ...values, partner: values.partner.trim(), reason: values.reason.trim(), requestId: values.requestId.trim(), from: fromLocalInput(values.from), to: fromLocalInput(values.to) };
    if (next.from && next.to && next.from >= next.to) {
      setErrors({ fields: { to: ['must be later than From'] }, form: [] });
      return;
    }
    setErrors(noErrors);
    navigate(auditHref(next, ''));
  }

  return (
    <form class="filters audit-filters" role="search" aria-label="Audit filters" onSubmit={submit} noValidate>
      <FormAlert errors={shown.form} title="The search was refused" />
      <Field id="audit-partner" label="Partner" errors={shown.fields.partner}>
        {(control) => <input {...control} spellcheck={false} value={values.partner} onInput={set('partner')} />}
      </Field>
      <Field id="audit-operator" label="Operator" errors={shown.fields.operator}>
        {(control) => (
          <select {...control} value={values.operator} onChange={set('operator')}>
            <option value="">Any</option>
            <option value="bootstrap">bootstrap (ADMIN_TOKEN)</option>
            {(operators.data ?? []).map((operator) => (
              <option key={operator.id} value={operator.id}>
                {operator.name} ({operator.role})
              </option>
            ))}
          </select>
        )}
      </Field>
      <Field id="audit-outcome" label="Outcome" errors={shown.fields.outcome}>
        {(control) => (
          <select {...control} value={values.outcome} onChange={set('outcome')}>
            <option value="">Any</option>
            <option value="success">Success</option>
            <option value="failure">Failure</option>
          </select>
        )}
      </Field>
      <Field id="audit-action" label="Action" errors={shown.fields.action}>
        {(control) => (
          <select {...control} value={values.action} onChange={set('action')}>
            <option value="">Any</option>
            {ACTIONS.map((action) => (
              <option key={action} value={action}>
                {action}
              </option>
            ))}
          </select>
        )}
      </Field>
      <Field id="audit-reason" label="Reason" errors={shown.fields.reason}>
        {(control) => <input {...control} list="audit-reasons" spellcheck={false} value={values.reason} onInput={set('reason')} />}
      </Field>
      <datalist id="audit-reasons">
        {REASONS.map((reason) => (
          <option key={reason} value={reason} />
        ))}
      </datalist>
      <Field id="audit-requestId" label="Request id (X-Request-Id)" errors={shown.fields.requestId}>
        {(control) => <input {...control} spellcheck={false} autoComplete="off" value={values.requestId} onInput={set('requestId')} />}
      </Field>
      <Field id="audit-from" label={`From, your time (${utcOffset(new Date())})`} errors={shown.fields.from}>
        {(control) => <input {...control} type="datetime-local" value={values.from} onInput={set('from')} />}
      </Field>
      <Field id="audit-to" label={`To (before), your time (${utcOffset(new Date())})`} errors={shown.fields.to}>
        {(control) => <input {...control} type="datetime-local" value={values.to} onInput={set('to')} />}
      </Field>
      <Field id="audit-limit" label="Per page" errors={shown.fields.limit}>
        {(control) => (
          <select {...control} value={values.limit || '50'} onChange={set('limit')}>
            {['25', '50', '100', '500'].map((limit) => (
              <option key={limit} value={limit}>
                {limit}
              </option>
            ))}
          </select>
        )}
      </Field>
      <div class="actions">
        <button type="submit" class="primary">
          Search
        </button>
        <a class="button" href="#/audit">
          Clear
        </a>
      </div>
    </form>
  );
}

/** The filters that have a value (the API reads an empty one as a filter for the empty string). */
function withoutEmpty<T extends Record<string, string | undefined>>(query: T): Partial<T> {
  return Object.fromEntries(Object.entries(query).filter(([, value]) => value !== undefined && value !== '')) as Partial<T>;
}
