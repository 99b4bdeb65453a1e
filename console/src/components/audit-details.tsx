import type { BankListChange } from '@partner-gateway/contract/admin-bank-versions';
import type { ComponentChildren } from 'preact';
import { BankChanges, bankCounts, bankPreviewOf } from './bank-changes';

/**
 * An audit entry's details as people read them: a change's before and after field by field (only the fields that
 * changed, each old value beside its new one), and anything else as labelled values. Nested settings are named by
 * their path (`certificates.subjectDn`), lists are written out; a bank list change as its counts and the History
 * tab's table. Whatever is long (a list of every BIC an import touched, more than a dozen values) opens folded to
 * its count, with a "show" toggle, so that a page of entries stays a page.
 */
export function AuditDetails({ details }: { details: Record<string, unknown> }) {
  const { before, after, preview, changes, proposal: _proposal, dryRun: _dryRun, ...rest } = details;
  const change = 'before' in details || 'after' in details ? diff(before, after) : undefined;
  const previewed = isChange(preview) ? diff(preview.before, preview.after) : undefined;
  const bankPreview = bankPreviewOf(preview);
  const bankChanges = isBankChanges(changes) ? changes : bankPreview?.changes;
  const shownOtherwise = previewed !== undefined || bankPreview !== undefined;
  const others = rowsOf({ ...rest, ...(preview === undefined || shownOtherwise ? {} : { preview }), ...(changes === undefined || isBankChanges(changes) ? {} : { changes }) });
  const list = (
    <dl>
      {others.map((row) => (
        <div key={row.name}>
          <dt>{row.name}</dt>
          <dd>{row.items !== undefined && row.items > LIST_MAX ? <Collapsed summary={`${row.items} items`}>{row.value}</Collapsed> : row.value}</dd>
        </div>
      ))}
    </dl>
  );
  return (
    <div class="audit-details">
      {change && <ChangeTable rows={change} caption="Change" />}
      {previewed && <ChangeTable rows={previewed} caption="Proposed change" />}
      {bankPreview && <p class="change-counts">{bankCounts(bankPreview)}</p>}
      {bankChanges && <BankChanges changes={bankChanges} open={false} />}
      {others.length > 0 && (others.length > MAX_ROWS ? <Collapsed summary={`${others.length} values`}>{list}</Collapsed> : list)}
    </div>
  );
}

/** Past this many values, the details open collapsed to their count. */
const MAX_ROWS = 12;
/** Past this many items, a list (of BICs, of addresses) opens collapsed to its count. */
const LIST_MAX = 5;

/** Long content folded to a count, with a "show" toggle (a native <details>: keyboard and screen readers know it). */
function Collapsed({ summary, children }: { summary: string; children: ComponentChildren }) {
  return (
    <details class="collapsed">
      <summary>
        {summary} <span class="toggle">show</span>
      </summary>
      {children}
    </details>
  );
}

function isBankChanges(value: unknown): value is BankListChange[] {
  return Array.isArray(value) && value.length > 0 && value.every((item) => item !== null && typeof item === 'object' && 'bic' in item && 'kind' in item && Array.isArray((item as { fields?: unknown }).fields));
}

/** The values to list, by path; a top-level list of plain values keeps its item count (to fold it). */
function rowsOf(details: Record<string, unknown>): Array<{ name: string; value: string; items?: number }> {
  return Object.entries(details).flatMap(([key, value]) =>
    Array.isArray(value) && value.every((item) => item === null || typeof item !== 'object')
      ? [{ name: key, value: value.length === 0 ? '(empty)' : value.map(String).join(', '), items: value.length }]
      : flatten(value, key).map(([name, text]) => ({ name, value: text })),
  );
}

type DiffRow = { field: string; before: string; after: string };

function ChangeTable({ rows, caption }: { rows: { changed: DiffRow[]; unchanged: number }; caption: string }) {
  if (rows.changed.length === 0) return <p class="muted">{caption}: nothing changed{rows.unchanged > 0 ? ` (${rows.unchanged} fields as they were)` : ''}.</p>;
  return (
    <table class="diff">
      <caption>
        {caption}
        {rows.unchanged > 0 && <span class="muted"> ({rows.unchanged} other fields unchanged)</span>}
      </caption>
      <thead>
        <tr>
          <th scope="col">Field</th>
          <th scope="col">Before</th>
          <th scope="col">After</th>
        </tr>
      </thead>
      <tbody>
        {rows.changed.map((row) => (
          <tr key={row.field}>
            <th scope="row">{row.field}</th>
            <td class="before">{row.before}</td>
            <td class="after">{row.after}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

function isChange(value: unknown): value is { before: unknown; after: unknown } {
  return value !== null && typeof value === 'object' && 'before' in value && 'after' in value;
}

/** The fields whose values differ between `before` and `after` (absent or null reads as "none"). */
export function diff(before: unknown, after: unknown): { changed: DiffRow[]; unchanged: number } {
  const old = new Map(flatten(before));
  const now = new Map(flatten(after));
  const fields = [...new Set([...old.keys(), ...now.keys()])];
  const changed = fields.filter((field) => old.get(field) !== now.get(field)).map((field) => ({ field, before: old.get(field) ?? 'none', after: now.get(field) ?? 'none' }));
  return { changed, unchanged: fields.length - changed.length };
}

/** Values by their path: `{ a: { b: 1 }, list: ['x', 'y'] }` is `a.b: 1` and `list: x, y`. */
export function flatten(value: unknown, path = ''): Array<[string, string]> {
  if (value === null || value === undefined) return path ? [[path, 'none']] : [];
  if (Array.isArray(value)) {
    if (value.every((item) => item === null || typeof item !== 'object')) return [[path || 'value', value.length === 0 ? '(empty)' : value.map(String).join(', ')]];
    return value.flatMap((item, index) => flatten(item, `${path}[${index}]`));
  }
  if (typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>);
    if (entries.length === 0) return path ? [[path, '(empty)']] : [];
    return entries.flatMap(([key, inner]) => flatten(inner, path ? `${path}.${key}` : key));
  }
  return [[path || 'value', String(value)]];
}
