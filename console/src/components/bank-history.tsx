import type { BankVersionSummary, BankVersionView } from '@partner-gateway/contract/admin-bank-versions';
import { useEffect, useState } from 'preact/hooks';
import { announce } from '../announce';
import { admin } from '../api';
import { BankChanges } from './bank-changes';
import { ConfirmDialog } from './confirm-dialog';
import { errorsFrom, FormAlert } from './forms';
import { useMutation } from './use-mutation';
import { Time } from './time';

/**
 * The list's history: versions newest first (with "Older" paging), each with who, when, what made it and its diff
 * to the version before, and a restore behind a confirmation that shows what restoring changes.
 */
export function BankHistory({ canRestore, onRestored }: { canRestore: boolean; onRestored: () => Promise<void> }) {
  const [versions, setVersions] = useState<BankVersionSummary[]>([]);
  const [cursor, setCursor] = useState<string | null>(null);
  const [shown, setShown] = useState<BankVersionView | null>(null);
  const [restoring, setRestoring] = useState<{ number: number; baseVersion: number; changes: number } | null>(null);
  const { busy, errors, setErrors, run } = useMutation();
  const error = errors.form;
  const setError = (messages: string[]) => setErrors({ fields: {}, form: messages });

  async function load(from?: string) {
    const page = await admin.banks.versions(from ? { cursor: from, limit: 20 } : { limit: 20 });
    setVersions((before) => (from ? [...before, ...page.versions] : page.versions));
    setCursor(page.nextCursor);
  }
  useEffect(() => {
    load().catch((failure) => setError(errorsFrom(failure, []).form));
  }, []);

  async function askRestore(number: number) {
    setError([]);
    try {
      const preview = await admin.banks.restore(number, { dryRun: true });
      setRestoring({ number, baseVersion: preview.baseVersion, changes: preview.changes.length });
    } catch (failure) {
      setError(errorsFrom(failure, []).form);
    }
  }

  async function restore() {
    if (!restoring) return;
    await run(async () => {
      const outcome = await admin.banks.restore(restoring.number, { baseVersion: restoring.baseVersion });
      announce(`Version ${restoring.number} was restored as version ${outcome.version}.`);
      setShown(null);
      await Promise.all([load(), onRestored()]);
    });
    setRestoring(null);
  }

  return (
    <section aria-labelledby="bank-history-title">
      <h2 id="bank-history-title">History</h2>
      <FormAlert errors={error} title="The history could not be used" />
      <div class="table-scroll">
        <table class="bank-versions">
          <thead>
            <tr>
              <th scope="col">Version</th>
              <th scope="col">When</th>
              <th scope="col">Who</th>
              <th scope="col">Source</th>
              <th scope="col">Changes</th>
              <th scope="col">Comment</th>
              <th scope="col">
                <span class="visually-hidden">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {versions.map((version, index) => (
              <tr key={version.number}>
                <th scope="row">{version.number}</th>
                <td>
                  <Time value={version.createdAt} />
                </td>
                <td>
                  {version.author.name}
                  {version.approver && (
                    <>
                      <br />
                      <span class="muted">approved by</span> {version.approver.name}
                    </>
                  )}
                </td>
                <td>
                  {version.source}
                  {version.fileName ? ` ${version.fileName}` : ''}
                  {version.restoredFrom !== null ? ` of ${version.restoredFrom}` : ''}
                </td>
                <td>
                  +{version.added} ~{version.changed} −{version.removed} ({version.banks} banks)
                </td>
                <td>{version.comment ?? ''}</td>
                <td class="row-actions">
                  <button type="button" onClick={() => void admin.banks.version(version.number).then(setShown, (failure) => setError(errorsFrom(failure, []).form))}>
                    Show changes
                  </button>
                  {canRestore && index > 0 && (
                    <button type="button" onClick={() => void askRestore(version.number)}>
                      Restore…
                    </button>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {cursor && (
        <button type="button" onClick={() => void load(cursor)}>
          Older versions
        </button>
      )}
      {shown && (
        <div class="preview" role="region" aria-labelledby="version-title">
          <h3 id="version-title">
            Version {shown.number}: changes from version {shown.number - 1}
          </h3>
          <p>
            By {shown.author.name}
            {shown.approver ? `, approved by ${shown.approver.name}` : ''}: <strong>+{shown.added} added / ~{shown.changed} changed / −{shown.removed} removed</strong>
          </p>
          <BankChanges changes={shown.changes} />
        </div>
      )}
      <ConfirmDialog
        open={restoring !== null}
        title={`Restore version ${restoring?.number ?? ''}?`}
        confirmLabel="Restore"
        danger
        busy={busy}
        onConfirm={() => void restore()}
        onCancel={() => setRestoring(null)}
      >
        <p>
          The list becomes what it was in version {restoring?.number}: {restoring?.changes} bank{restoring?.changes === 1 ? '' : 's'} change, as version{' '}
          {(restoring?.baseVersion ?? 0) + 1}. Partners get that version's exact body from their next banks call.
        </p>
      </ConfirmDialog>
    </section>
  );
}
