import type { ApprovalSetting, ProposalView } from '@partner-gateway/contract/admin-approvals';
import { useState } from 'preact/hooks';
import { announce } from '../announce';
import { admin } from '../api';
import { ConfirmDialog } from '../components/confirm-dialog';
import { Field, FormAlert, noErrors } from '../components/forms';
import { useMutation } from '../components/use-mutation';
import { LoadState, PageTitle, useLoad } from '../components/page';
import { applySummary, ProposalPreview } from '../components/proposal-preview';
import { Time } from '../components/time';
import { useCan, useIdentity } from '../identity';

/**
 * Maker-checker: proposals waiting for a second operator (with what each will do), those decided lately, and
 * which actions need a second operator. An operator cannot approve its own proposal (it may withdraw it).
 */
export function ApprovalsPage() {
  const proposals = useLoad(() => admin.approvals.list({ limit: '200' }).then((body) => body.proposals), 'proposals');
  const pending = (proposals.data ?? []).filter((proposal) => proposal.status === 'pending');
  const decided = (proposals.data ?? []).filter((proposal) => proposal.status !== 'pending');
  return (
    <>
      <PageTitle title="Approvals" />
      <p>Changes one operator proposed and another must approve before they are made. Each is applied exactly as shown, or refused if what it was based on has changed meanwhile.</p>
      <LoadState loaded={proposals} what="proposals" />
      {proposals.data && (
        <>
          <h2>Waiting for approval</h2>
          {pending.length === 0 ? <p class="empty">No proposal is waiting.</p> : pending.map((proposal) => <Proposal key={proposal.id} proposal={proposal} onDecided={proposals.reload} />)}
          <h2>Decided lately</h2>
          {decided.length === 0 ? <p class="empty">None.</p> : <DecidedTable proposals={decided} />}
        </>
      )}
      <Settings />
    </>
  );
}

function Proposal({ proposal, onDecided }: { proposal: ProposalView; onDecided: () => Promise<void> }) {
  const identity = useIdentity();
  const canDecide = useCan('approvals.decide');
  const own = identity?.id === proposal.proposedBy.id;
  const [rejecting, setRejecting] = useState(false);
  const [approving, setApproving] = useState(false);
  const [reason, setReason] = useState('');
  const { busy, errors, setErrors, run } = useMutation();
  const error = errors.form;

  async function decide(approve: boolean) {
    setErrors(noErrors);
    const done = await run(async () => {
      if (approve) await admin.approvals.approve(proposal.id);
      else await admin.approvals.reject(proposal.id, reason.trim() ? { reason: reason.trim() } : {});
      announce(approve ? `Approved and applied: ${proposal.action} of ${proposal.target}.` : `${own ? 'Withdrawn' : 'Rejected'}: ${proposal.action} of ${proposal.target}.`);
      setRejecting(false);
      setApproving(false);
      await onDecided();
    });
    if (!done) {
      setApproving(false);
    }
  }

  return (
    <article class="proposal" aria-labelledby={`proposal-${proposal.id}`}>
      <h3 id={`proposal-${proposal.id}`}>
        {proposal.action} — {proposal.target}
      </h3>
      <p>
        Proposed by <strong>{proposal.proposedBy.name}</strong> at <Time value={proposal.proposedAt} />; expires at <Time value={proposal.expiresAt} />.
      </p>
      <ProposalPreview proposal={proposal} />
      <FormAlert errors={error} title="The proposal was not decided" />
      {canDecide && (
        <div class="actions">
          {own ? (
            <p class="hint">You proposed this: another operator must approve it.</p>
          ) : (
            <button type="button" class="primary" disabled={busy} onClick={() => setApproving(true)}>
              Approve…
            </button>
          )}
          <button type="button" disabled={busy} onClick={() => setRejecting(true)}>
            {own ? 'Withdraw' : 'Reject'}…
          </button>
        </div>
      )}
      <ConfirmDialog open={approving} title="Approve and apply this proposal?" confirmLabel="Approve and apply" busy={busy} onConfirm={() => void decide(true)} onCancel={() => setApproving(false)}>
        <p data-testid="approve-summary">{applySummary(proposal)}</p>
        <p>
          Proposed by {proposal.proposedBy.name}. It is applied at once, exactly as shown, or refused if what it was based on has changed.
        </p>
      </ConfirmDialog>
      <ConfirmDialog open={rejecting} title={`${own ? 'Withdraw' : 'Reject'} this proposal?`} confirmLabel={own ? 'Withdraw' : 'Reject'} danger busy={busy} onConfirm={() => void decide(false)} onCancel={() => setRejecting(false)}>
        <Field id={`reject-reason-${proposal.id}`} label="Reason (shown to the proposer and in the audit trail)">
          {(control) => <input {...control} value={reason} maxLength={500} onInput={(event) => setReason(event.currentTarget.value)} />}
        </Field>
      </ConfirmDialog>
    </article>
  );
}

function DecidedTable({ proposals }: { proposals: ProposalView[] }) {
  return (
    <div class="table-scroll">
      <table>
        <caption class="visually-hidden">Decided proposals, newest first</caption>
        <thead>
          <tr>
            <th scope="col">Proposed</th>
            <th scope="col">Action</th>
            <th scope="col">Target</th>
            <th scope="col">By</th>
            <th scope="col">Outcome</th>
            <th scope="col">Decided by</th>
            <th scope="col">Reason</th>
          </tr>
        </thead>
        <tbody>
          {proposals.map((proposal) => (
            <tr key={proposal.id}>
              <td>
                <Time value={proposal.proposedAt} />
              </td>
              <td>{proposal.action}</td>
              <td>{proposal.target}</td>
              <td>{proposal.proposedBy.name}</td>
              <td>
                <span class={`badge badge-${proposal.status === 'approved' ? 'success' : 'failure'}`}>{proposal.status}</span>
              </td>
              <td>
                {proposal.decidedBy?.name ?? '—'} {proposal.decidedAt && <Time value={proposal.decidedAt} />}
              </td>
              <td>{proposal.reason ?? '—'}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** Which actions need a second operator: security changes it (itself possibly needing approval). */
function Settings() {
  const settings = useLoad(() => admin.approvals.settings().then((body) => body.actions), 'approval-settings');
  const can = useCan('approvals.settings');
  const [chosen, setChosen] = useState<Set<string> | null>(null);
  const { busy, errors, setErrors, run } = useMutation();
  const error = errors.form;
  const current = chosen ?? new Set((settings.data ?? []).filter((setting) => setting.required).map((setting) => setting.action));

  async function save(event: Event) {
    event.preventDefault();
    setErrors(noErrors);
    await run(async () => {
      await admin.approvals.setSettings([...current]);
      announce('Maker-checker settings saved.');
      setChosen(null);
      await settings.reload();
    });
  }

  return (
    <section aria-labelledby="approval-settings-heading">
      <h2 id="approval-settings-heading">Which actions need a second operator</h2>
      <LoadState loaded={settings} what="settings" />
      {settings.data && (
        <form onSubmit={save}>
          <FormAlert errors={error} title="The settings were not changed" />
          <fieldset disabled={!can || busy}>
            <legend class="visually-hidden">Actions</legend>
            {settings.data.map((setting: ApprovalSetting) => (
              <div class="checkbox" key={setting.action}>
                <input
                  type="checkbox"
                  id={`requires-${setting.action}`}
                  checked={current.has(setting.action)}
                  onChange={(event) => {
                    const next = new Set(current);
                    if (event.currentTarget.checked) next.add(setting.action);
                    else next.delete(setting.action);
                    setChosen(next);
                  }}
                />
                <label for={`requires-${setting.action}`}>
                  <code>{setting.action}</code>: {setting.description} <span class="muted">(approved with {setting.permission})</span>
                </label>
              </div>
            ))}
          </fieldset>
          {can ? (
            <div class="actions">
              <button type="submit" class="primary" disabled={busy}>
                Save
              </button>
            </div>
          ) : (
            <p class="hint">Only the security role changes these.</p>
          )}
        </form>
      )}
    </section>
  );
}
