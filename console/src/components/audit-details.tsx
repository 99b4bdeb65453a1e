/**
 * An audit entry's details as people read them: a change's before and after field by field (only the fields that
 * changed, each old value beside its new one), and anything else as labelled values. Nested settings are named by
 * their path (`certificates.subjectDn`), lists are written out.
 */
export function AuditDetails({ details }: { details: Record<string, unknown> }) {
  const { before, after, preview, proposal: _proposal, dryRun: _dryRun, ...rest } = details;
  const change = 'before' in details || 'after' in details ? diff(before, after) : undefined;
  const previewed = isChange(preview) ? diff(preview.before, preview.after) : undefined;
  const others = flatten(previewed || preview === undefined ? rest : { ...rest, preview });
  return (
    <div class="audit-details">
      {change && <ChangeTable rows={change} caption="Change" />}
      {previewed && <ChangeTable rows={previewed} caption="Proposed change" />}
      {others.length > 0 && (
        <dl>
          {others.slice(0, MAX_ROWS).map(([name, value]) => (
            <div key={name}>
              <dt>{name}</dt>
              <dd>{value}</dd>
            </div>
          ))}
          {others.length > MAX_ROWS && (
            <div>
              <dt>…</dt>
              <dd>{others.length - MAX_ROWS} more values (in the export)</dd>
            </div>
          )}
        </dl>
      )}
    </div>
  );
}

const MAX_ROWS = 12;

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
