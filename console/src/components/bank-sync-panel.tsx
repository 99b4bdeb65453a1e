import type { BankSyncPreview, BankSyncRun, BankSyncStatus } from '@partner-gateway/contract/admin-bank-sync';
import { useEffect, useState } from 'preact/hooks';
import { announce } from '../announce';
import { admin } from '../api';
import { BankChanges } from './bank-changes';
import { ConfirmDialog } from './confirm-dialog';
import { errorsFrom, FormAlert, noErrors } from './forms';
import { useMutation } from './use-mutation';
import { Time } from './time';

/** BANKS_SYNC_INTERVAL in words: `24 hours`, `15 minutes`, `90 seconds`. */
function interval(seconds: number): string {
  if (seconds % 3600 === 0) return `${seconds / 3600} hour${seconds === 3600 ? '' : 's'}`;
  if (seconds % 60 === 0) return `${seconds / 60} minute${seconds === 60 ? '' : 's'}`;
  return `${seconds} seconds`;
}

/** A run's outcome in words, as the table and the announcements say it. */
function outcomeOf(run: BankSyncRun): string {
  if (run.outcome === 'applied') return `applied as version ${run.version}`;
  if (run.outcome === 'held') return `held (${run.hold?.status}${run.version !== null ? `, version ${run.version}` : ''})`;
  if (run.outcome === 'failed') return run.finishedAt === null ? 'failed: never finished' : 'failed';
  if (run.outcome === 'started') return 'running';
  return 'no change';
}

/**
 * The registry sync (BANKS_SYNC_URL): its settings and last runs; a preview of what a sync would change now, then
 * running it behind a confirmation; and the run the removal guard held, with every change it would make, to
 * approve (behind a confirmation) or reject.
 */
export function BankSyncPanel({ canChange, onChanged }: { canChange: boolean; onChanged: () => Promise<void> }) {
  const [status, setStatus] = useState<BankSyncStatus | null>(null);
  const [preview, setPreview] = useState<BankSyncPreview | null>(null);
  const [confirming, setConfirming] = useState<'run' | 'approve' | null>(null);
  const [reason, setReason] = useState('');
  const { busy, errors, setErrors, run } = useMutation();
  const error = errors.form;
  const setError = (messages: string[]) => setErrors({ fields: {}, form: messages });

  const load = async () => setStatus(await admin.bankSync.status());
  useEffect(() => {
    load().catch((failure) => setError(errorsFrom(failure, []).form));
  }, []);

  async function act(work: () => Promise<void>) {
    setErrors(noErrors);
    const done = await run(async () => {
      await work();
    });
    if (!done) {
      await load().catch(() => {});
    }
    setConfirming(null);
  }

  const runNow = () =>
    act(async () => {
      const run = await admin.bankSync.run();
      announce(`Sync run ${run.id}: ${outcomeOf(run)}${run.outcome === 'held' ? ` — ${run.hold?.reason}` : ''}.`);
      setPreview(null);
      await Promise.all([load(), onChanged()]);
    });
  const approve = (id: number) =>
    act(async () => {
      const run = await admin.bankSync.approve(id);
      announce(`Held sync run ${id} was approved and applied as version ${run.version}.`);
      await Promise.all([load(), onChanged()]);
    });
  const reject = (id: number) =>
    act(async () => {
      await admin.bankSync.reject(id, reason.trim() === '' ? undefined : reason.trim());
      announce(`Held sync run ${id} was rejected; the list is unchanged.`);
      setReason('');
      await load();
    });

  if (!status) return <FormAlert errors={error} title="The registry sync could not be read" />;
  const pending = status.pending;
  return (
    <section aria-labelledby="bank-sync-title">
      <h2 id="bank-sync-title">Registry sync</h2>
      <FormAlert errors={error} title="The registry sync could not be used" />
      {status.configured ? (
        <p>
          From <code>{status.source}</code> every {interval(status.intervalSeconds)}. A
          run that would remove more than {status.maxRemovals} banks or leave fewer than {status.minBanks} is held for an operator. Last success:{' '}
          {status.lastSuccessAt ? <Time value={status.lastSuccessAt} /> : 'never'}.
        </p>
      ) : (
        <p>The registry sync is off: set BANKS_SYNC_URL to the Bank of Russia directory (ED807) to sync the list from.</p>
      )}
      {pending && (
        <div class="preview" role="region" aria-labelledby="pending-sync-title">
          <h3 id="pending-sync-title">Held sync run {pending.id}: waiting for a decision</h3>
          <p>
            Held because {pending.hold?.reason}. Read from <code>{pending.source}</code> on <Time value={pending.finishedAt} />, against version {pending.baseVersion}.
          </p>
          <BankChanges changes={pending.changes} title="Every change approving it makes" />
          {canChange && (
            <div class="sync-decision">
              <button type="button" class="danger" disabled={busy} onClick={() => setConfirming('approve')}>
                Approve…
              </button>
              <label>
                Reason for rejecting <input value={reason} maxLength={500} onInput={(event) => setReason((event.target as HTMLInputElement).value)} />
              </label>
              <button type="button" disabled={busy} onClick={() => void reject(pending.id)}>
                Reject
              </button>
            </div>
          )}
        </div>
      )}
      {status.configured && canChange && (
        <p>
          <button type="button" disabled={busy} onClick={() => void act(async () => setPreview(await admin.bankSync.preview()))}>
            Preview a sync now
          </button>
        </p>
      )}
      {preview && (
        <div class="preview" role="region" aria-labelledby="sync-preview-title">
          <h3 id="sync-preview-title">
            Preview (dry run): {preview.added.length} added, {preview.changed.length} changed, {preview.removed.length} removed against version {preview.baseVersion}
          </h3>
          {preview.holdReason && <p role="note">The removal guard will hold this run: {preview.holdReason}.</p>}
          <BankChanges changes={preview.changes} />
          {preview.changes.length > 0 && (
            <button type="button" disabled={busy} onClick={() => setConfirming('run')}>
              Run the sync…
            </button>
          )}
        </div>
      )}
      <h3>Last runs</h3>
      {status.runs.length === 0 ? (
        <p>No runs yet.</p>
      ) : (
        <div class="table-scroll">
          <table class="bank-sync-runs">
            <thead>
              <tr>
                <th scope="col">Run</th>
                <th scope="col">When</th>
                <th scope="col">Trigger</th>
                <th scope="col">Who</th>
                <th scope="col">Outcome</th>
                <th scope="col">What</th>
              </tr>
            </thead>
            <tbody>
              {status.runs.map((run) => (
                <tr key={run.id} class={`sync-${run.outcome}`}>
                  <th scope="row">{run.id}</th>
                  <td>
                    <Time value={run.finishedAt ?? run.startedAt} />
                  </td>
                  <td>{run.trigger}</td>
                  <td>{run.author.name}</td>
                  <td>{outcomeOf(run)}</td>
                  <td>{run.error ?? run.hold?.reason ?? `+${run.added} ~${run.changed} −${run.removed}`}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <ConfirmDialog
        open={confirming !== null}
        title={confirming === 'approve' ? `Approve held sync run ${pending?.id ?? ''}?` : 'Run the registry sync now?'}
        confirmLabel={confirming === 'approve' ? 'Approve' : 'Run'}
        danger={confirming === 'approve'}
        busy={busy}
        onConfirm={() => void (confirming === 'approve' && pending ? approve(pending.id) : runNow())}
        onCancel={() => setConfirming(null)}
      >
        {confirming === 'approve' ? (
          <p>
            {pending?.changes.length} bank{pending?.changes.length === 1 ? '' : 's'} change exactly as shown, as a new version; {pending?.removed} bank{pending?.removed === 1 ? '' : 's'} stop being
            offered to partners. It is refused if the list has changed since version {pending?.baseVersion}.
          </p>
        ) : (
          <p>The sync downloads the directory again and applies what it finds (held instead if the removal guard stops it).</p>
        )}
      </ConfirmDialog>
    </section>
  );
}
