import type { AdminBank as Bank } from '@partner-gateway/contract/admin-banks';
import { CURATED_TEXT_FIELD_NAMES, CURATED_TEXT_FIELDS } from '@partner-gateway/contract/bank-curated-fields';
import { useMemo, useState } from 'preact/hooks';
import { announce } from '../announce';
import { admin } from '../api';
import { BankEditDialog } from './bank-edit-dialog';
import { ConfirmDialog } from './confirm-dialog';
import { FormAlert, noErrors } from './forms';
import { useMutation } from './use-mutation';

const PAGE_SIZE = 25;

/**
 * The bank list in the order partners receive it: search by name, BIC or member id, paging, move one place up or
 * down, edit curated fields or move to a position (the edit dialog), remove. Every change is a new version made on
 * the version shown (`version`): a change by someone else in between is refused, never overwritten.
 */
export function BankList({ banks, version, canChange, onChanged }: { banks: Bank[]; version: number; canChange: boolean; onChanged: () => Promise<void> }) {
  const [query, setQuery] = useState('');
  const [page, setPage] = useState(0);
  const { busy, errors, setErrors, run } = useMutation();
  const error = errors.form;
  const [editing, setEditing] = useState<Bank | null>(null);
  const [removing, setRemoving] = useState<Bank | null>(null);
  const found = useMemo(() => {
    const needle = query.trim().toLowerCase();
    if (!needle) return banks;
    return banks.filter((bank) => [bank.name, bank.bic, ...CURATED_TEXT_FIELD_NAMES.map((field) => bank[field] ?? ''), bank.registryName ?? ''].some((text) => text.toLowerCase().includes(needle)));
  }, [banks, query]);
  const pages = Math.max(1, Math.ceil(found.length / PAGE_SIZE));
  const shown = found.slice(page * PAGE_SIZE, (page + 1) * PAGE_SIZE);

  async function change(what: () => Promise<unknown>, done: string, focus?: string) {
    setErrors(noErrors);
    await run(async () => {
      await what();
      announce(done);
      await onChanged();
      if (focus) requestAnimationFrame(() => document.getElementById(focus)?.focus());
    });
  }
  const move = (bank: Bank, by: number) =>
    change(() => admin.banks.edit(bank.bic, { position: bank.position + 1 + by }, { baseVersion: version }), `${bank.name} moved to position ${bank.position + 1 + by}.`, `move-${by < 0 ? 'up' : 'down'}-${bank.bic}`);

  return (
    <section aria-labelledby="bank-list-title">
      <h2 id="bank-list-title">
        The list ({banks.length}), version {version}
      </h2>
      <FormAlert errors={error} title="The list was not changed" />
      <div class="form form-row">
        <label for="bank-search">Search by name, BIC or member id</label>
        <input id="bank-search" type="search" value={query} onInput={(event) => (setQuery(event.currentTarget.value), setPage(0))} />
        <span role="status">{query ? `${found.length} found` : ''}</span>
      </div>
      <div class="table-scroll">
        <table class="banks">
          <caption class="visually-hidden">Banks in the order partners receive them</caption>
          <thead>
            <tr>
              <th scope="col">#</th>
              <th scope="col">BIC</th>
              <th scope="col">Name</th>
              {CURATED_TEXT_FIELD_NAMES.map((field) => (
                <th key={field} scope="col">
                  {CURATED_TEXT_FIELDS[field].title}
                </th>
              ))}
              <th scope="col">Registry name</th>
              <th scope="col">
                <span class="visually-hidden">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {shown.map((bank) => (
              <tr key={bank.bic}>
                <td>{bank.position + 1}</td>
                <td>
                  <code>{bank.bic}</code>
                </td>
                <th scope="row" title={sourceText(bank, 'name')}>
                  {bank.name}
                </th>
                {CURATED_TEXT_FIELD_NAMES.map((field) => (
                  <td key={field} title={sourceText(bank, field)}>
                    {bank[field] ?? '—'}
                    {bank.sources[field] && <small class="field-source"> {bank.sources[field].source}</small>}
                  </td>
                ))}
                <td>{bank.registryName ?? '—'}</td>
                {canChange && (
                  <td class="row-actions">
                    <button type="button" id={`move-up-${bank.bic}`} class="icon" disabled={busy || bank.position === 0} aria-label={`Move ${bank.name} up`} onClick={() => void move(bank, -1)}>
                      ↑
                    </button>
                    <button
                      type="button"
                      id={`move-down-${bank.bic}`}
                      class="icon"
                      disabled={busy || bank.position === banks.length - 1}
                      aria-label={`Move ${bank.name} down`}
                      onClick={() => void move(bank, 1)}
                    >
                      ↓
                    </button>
                    <button type="button" aria-label={`Edit ${bank.name}`} onClick={() => setEditing(bank)}>
                      Edit or move…
                    </button>
                    <button type="button" class="danger-quiet" aria-label={`Remove ${bank.name}`} onClick={() => setRemoving(bank)}>
                      Remove
                    </button>
                  </td>
                )}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <nav class="actions" aria-label="Pages of banks">
        <button type="button" disabled={page === 0} onClick={() => setPage(page - 1)}>
          Previous
        </button>
        <span>
          Page {page + 1} of {pages}
        </span>
        <button type="button" disabled={page >= pages - 1} onClick={() => setPage(page + 1)}>
          Next
        </button>
      </nav>
      <BankEditDialog bank={editing} baseVersion={version} onClose={() => setEditing(null)} onSaved={onChanged} />
      <ConfirmDialog
        open={removing !== null}
        title={`Remove ${removing?.name ?? ''}?`}
        confirmLabel="Remove"
        danger
        busy={busy}
        onConfirm={() => removing && void change(() => admin.banks.remove(removing.bic, { baseVersion: version }), `${removing.name} (${removing.bic}) was removed from the list.`).then(() => setRemoving(null))}
        onCancel={() => setRemoving(null)}
      >
        <p>Partners stop receiving {removing?.bic} from their next banks call.</p>
      </ConfirmDialog>
    </section>
  );
}

/** Where a field's value came from, for its cell's title: `participants, by maker-mia, 2026-11-28`. */
function sourceText(bank: Bank, field: keyof Bank['sources']): string | undefined {
  const source = bank.sources[field];
  return source ? `${source.source}, by ${source.by.name}, ${source.at.slice(0, 10)}` : undefined;
}
