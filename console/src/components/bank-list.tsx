import type { AdminBank as Bank } from '@partner-gateway/contract/admin-banks';
import { useState } from 'preact/hooks';
import { announce } from '../announce';
import { admin } from '../api';
import { ConfirmDialog } from './confirm-dialog';
import { errorsFrom, FormAlert } from './forms';

/** The bank list in the order partners receive it: reorder, save the order, remove one bank. */
export function BankList({ banks, onChanged }: { banks: Bank[]; onChanged: () => Promise<void> }) {
  const [order, setOrder] = useState(banks);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string[]>([]);
  const [removing, setRemoving] = useState<Bank | null>(null);
  const moved = order.some((bank, index) => bank.bic !== banks[index]?.bic);

  function move(index: number, by: number) {
    const target = index + by;
    if (target < 0 || target >= order.length) return;
    const next = [...order];
    [next[index], next[target]] = [next[target]!, next[index]!];
    setOrder(next);
    // Keep the focus on the same bank's button, now on its new row.
    requestAnimationFrame(() => document.getElementById(`move-${by < 0 ? 'up' : 'down'}-${next[target]!.bic}`)?.focus());
  }

  async function saveOrder() {
    setBusy(true);
    setError([]);
    try {
      await admin.banks.replace( order.map(({ bic, name, nameEn, sbpMemberId }) => ({ bic, name, nameEn, sbpMemberId })));
      announce('The new bank order was saved.');
      await onChanged();
    } catch (failure) {
      setError(errorsFrom(failure, []).form);
    } finally {
      setBusy(false);
    }
  }

  async function remove(bank: Bank) {
    setBusy(true);
    setError([]);
    try {
      await admin.banks.remove(bank.bic);
      announce(`${bank.name} (${bank.bic}) was removed from the list.`);
      await onChanged();
    } catch (failure) {
      setError(errorsFrom(failure, []).form);
    } finally {
      setBusy(false);
      setRemoving(null);
    }
  }

  return (
    <section aria-labelledby="bank-list-title">
      <h2 id="bank-list-title">The list ({banks.length})</h2>
      <FormAlert errors={error} title="The list was not changed" />
      {moved && (
        <div class="notice unsaved" role="status">
          <p>The order has changed and is not saved yet.</p>
          <div class="actions">
            <button type="button" class="primary" disabled={busy} onClick={() => void saveOrder()}>
              {busy ? 'Saving…' : 'Save order'}
            </button>
            <button type="button" disabled={busy} onClick={() => setOrder(banks)}>
              Discard changes
            </button>
          </div>
        </div>
      )}
      <div class="table-scroll">
        <table class="banks">
          <caption class="visually-hidden">Banks in the order partners receive them</caption>
          <thead>
            <tr>
              <th scope="col">#</th>
              <th scope="col">BIC</th>
              <th scope="col">Name</th>
              <th scope="col">English name</th>
              <th scope="col">SBP member id</th>
              <th scope="col">
                <span class="visually-hidden">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {order.map((bank, index) => (
              <tr key={bank.bic}>
                <td>{index + 1}</td>
                <td>
                  <code>{bank.bic}</code>
                </td>
                <th scope="row">{bank.name}</th>
                <td>{bank.nameEn ?? '—'}</td>
                <td>{bank.sbpMemberId ?? '—'}</td>
                <td class="row-actions">
                  <button type="button" id={`move-up-${bank.bic}`} class="icon" disabled={index === 0} aria-label={`Move ${bank.name} up`} onClick={() => move(index, -1)}>
                    ↑
                  </button>
                  <button
                    type="button"
                    id={`move-down-${bank.bic}`}
                    class="icon"
                    disabled={index === order.length - 1}
                    aria-label={`Move ${bank.name} down`}
                    onClick={() => move(index, 1)}
                  >
                    ↓
                  </button>
                  <button type="button" class="danger-quiet" aria-label={`Remove ${bank.name}`} onClick={() => setRemoving(bank)}>
                    Remove
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <ConfirmDialog
        open={removing !== null}
        title={`Remove ${removing?.name ?? ''}?`}
        confirmLabel="Remove"
        danger
        busy={busy}
        onConfirm={() => removing && void remove(removing)}
        onCancel={() => setRemoving(null)}
      >
        <p>Partners stop receiving {removing?.bic} from their next banks call.</p>
      </ConfirmDialog>
    </section>
  );
}
