import { useState } from 'preact/hooks';
import type { BankAdmissionQueue as Queue } from '@partner-gateway/contract/admin-bank-admissions';
import { announce } from '../announce';
import { admin } from '../api';
import { Field, FormAlert } from './forms';
import { useMutation } from './use-mutation';

/**
 * The review queue: new SBP head offices a registry merge or sync found, pending or excluded (with the exclusion).
 * An operator selects any number of them and admits the pending ones (appended at the end as one version, each under
 * its suggested name or the one typed in its row), excludes them with a reason, or lifts their BIC exclusion. Each is
 * a checked action: under maker-checker the answer is a proposal, said as such.
 */
export function BankAdmissionQueue({ queue, canChange, onChanged }: { queue: Queue; canChange: boolean; onChanged: () => Promise<void> }) {
  const [selected, setSelected] = useState<ReadonlySet<string>>(new Set());
  const [names, setNames] = useState<Record<string, string>>({});
  const [reason, setReason] = useState('');
  const { busy, errors, setErrors, run } = useMutation(['reason']);
  const chosen = queue.banks.filter((bank) => selected.has(bank.bic));
  const pending = chosen.filter((bank) => bank.state === 'pending');
  const liftable = chosen.filter((bank) => bank.excludedBy?.kind === 'bic');
  const toggle = (bic: string) => setSelected((now) => (now.has(bic) ? new Set([...now].filter((one) => one !== bic)) : new Set([...now, bic])));
  const allPending = queue.banks.filter((bank) => bank.state === 'pending').map((bank) => bank.bic);

  async function act(what: () => Promise<string>) {
    await run(async () => {
      const message = await what();
      setSelected(new Set());
      announce(message);
      await onChanged();
    });
  }
  const admit = () =>
    act(async () => {
      const outcome = await admin.bankAdmissions.admit(pending.map((bank) => ({ bic: bank.bic, ...(names[bank.bic]?.trim() ? { name: names[bank.bic]!.trim() } : {}) })));
      return `${outcome.added.length} banks were admitted as version ${outcome.version}.`;
    });
  const exclude = () =>
    act(async () => {
      const outcome = await admin.bankAdmissions.exclude(chosen.map((bank) => bank.bic), reason);
      setReason('');
      return `${outcome.changed.length} banks were excluded.`;
    });
  const lift = () =>
    act(async () => {
      const outcome = await admin.bankAdmissions.unexclude(liftable.map((bank) => bank.bic));
      return `The exclusion of ${outcome.changed.length} banks was lifted.`;
    });

  return (
    <section aria-labelledby="queue-title">
      <h2 id="queue-title">
        Review queue: {queue.pending} pending, {queue.excluded} excluded
      </h2>
      <p>
        New banks the registry lists wait here until an operator admits them{queue.autoAdmit ? ' (BANKS_AUTO_ADMIT is on: new banks are published at once unless excluded)' : ''}. Partners do not receive them
        before.
      </p>
      <FormAlert errors={errors.form} title="Nothing was changed" />
      {canChange && (
        <div class="form form-row" role="group" aria-label="Selected banks">
          <button type="button" onClick={() => setSelected(new Set(allPending))} disabled={busy || allPending.length === 0}>
            Select all pending
          </button>
          <button type="button" class="primary" onClick={admit} disabled={busy || pending.length === 0}>
            Admit {pending.length} selected
          </button>
          <Field id="exclude-reason" label="Reason to exclude" errors={errors.fields['reason']}>
            {(control) => <input {...control} value={reason} maxLength={500} onInput={(event) => setReason(event.currentTarget.value)} />}
          </Field>
          <button type="button" onClick={exclude} disabled={busy || chosen.length === 0 || reason.trim() === ''}>
            Exclude {chosen.length} selected
          </button>
          <button type="button" onClick={lift} disabled={busy || liftable.length === 0}>
            Lift exclusion of {liftable.length}
          </button>
        </div>
      )}
      {queue.banks.length === 0 ? (
        <p>No bank waits.</p>
      ) : (
        <div class="table-scroll">
          <table class="banks">
            <thead>
              <tr>
                {canChange && <th scope="col">Select</th>}
                <th scope="col">BIC</th>
                <th scope="col">Display name</th>
                <th scope="col">Registry name</th>
                <th scope="col">English name</th>
                <th scope="col">State</th>
              </tr>
            </thead>
            <tbody>
              {queue.banks.map((bank) => (
                <tr key={bank.bic}>
                  {canChange && (
                    <td>
                      <input type="checkbox" aria-label={`Select ${bank.bic}`} checked={selected.has(bank.bic)} onChange={() => toggle(bank.bic)} />
                    </td>
                  )}
                  <td>{bank.bic}</td>
                  <td>
                    {canChange && bank.state === 'pending' ? (
                      <input
                        aria-label={`Display name of ${bank.bic}`}
                        value={names[bank.bic] ?? bank.suggestedName}
                        maxLength={200}
                        onInput={(event) => setNames({ ...names, [bank.bic]: event.currentTarget.value })}
                      />
                    ) : (
                      bank.suggestedName
                    )}
                  </td>
                  <td>{bank.registryName}</td>
                  <td>{bank.nameEn ?? ''}</td>
                  <td>{bank.excludedBy ? `Excluded (${bank.excludedBy.kind === 'bic' ? 'BIC' : `rule “${bank.excludedBy.value}”`}): ${bank.excludedBy.reason}` : 'Pending'}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}
