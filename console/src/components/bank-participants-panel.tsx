import type { ParticipantsStatus } from '@partner-gateway/contract/admin-bank-participants';
import { useEffect, useState } from 'preact/hooks';
import { announce } from '../announce';
import { admin } from '../api';
import { errorsFrom, FormAlert } from './forms';
import { useMutation } from './use-mutation';
import { Time } from './time';

/**
 * The settlement bank's participant list: its sync, the latest reading's matching (what stayed unmatched on either
 * side), and the name-match proposals an operator confirms (the banks take their member ids, one version) or
 * rejects. Each decision is a checked action: under maker-checker the answer is a proposal, said as such.
 */
export function BankParticipantsPanel({ canChange, onChanged }: { canChange: boolean; onChanged: () => Promise<void> }) {
  const [status, setStatus] = useState<ParticipantsStatus | null>(null);
  const { busy, errors, setErrors, run } = useMutation();
  const error = errors.form;
  const setError = (messages: string[]) => setErrors({ fields: {}, form: messages });
  const load = async () => setStatus(await admin.bankParticipants.status());
  useEffect(() => {
    void load().catch((failure: unknown) => setError(errorsFrom(failure, []).form));
  }, []);

  async function decide(bic: string, how: 'confirm' | 'reject') {
    await run(async () => {
      if (how === 'confirm') {
        const outcome = await admin.bankParticipants.confirm([bic]);
        announce(`The member id of ${bic} was applied as version ${outcome.version}.`);
      } else {
        await admin.bankParticipants.reject([bic]);
        announce(`The match of ${bic} was rejected.`);
      }
      await Promise.all([load(), onChanged()]);
    });
  }

  if (!status) return <FormAlert errors={error} title="The participant list could not be read or changed" />;
  const last = status.runs[0];
  const pending = status.proposals.filter((proposal) => proposal.status === 'pending');
  return (
    <section aria-labelledby="participants-title">
      <h2 id="participants-title">Participant list: {pending.length} name matches to confirm</h2>
      <p>
        {status.configured ? `Synced from ${status.source}.` : 'No sync: BANKS_PARTICIPANTS_URL is not set; import a list with bank import-participants or the admin API.'}
        {status.required ? ' Banks the list leaves out are kept from partners.' : ''}
      </p>
      <FormAlert errors={error} title="The participant list could not be read or changed" />
      {last?.matching && (
        <p id="participants-last">
          Last reading (<Time value={last.finishedAt} />, {last.outcome}): {last.matching.received} participants, {last.matching.matchedByBic} matched by BIC, {last.matching.matchedByMemberId} by
          member id; {last.matching.unmatchedParticipants.length} participants and {last.matching.unmatchedBanks.length} banks unmatched.
        </p>
      )}
      {status.proposals.length > 0 && (
        <table class="banks">
          <caption class="visually-hidden">Name matches of the participant list</caption>
          <thead>
            <tr>
              <th scope="col">BIC</th>
              <th scope="col">Bank</th>
              <th scope="col">Participant</th>
              <th scope="col">Member id</th>
              <th scope="col">Status</th>
              <th scope="col">
                <span class="visually-hidden">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {status.proposals.map((proposal) => (
              <tr key={proposal.bic}>
                <td>
                  <code>{proposal.bic}</code>
                </td>
                <th scope="row">{proposal.bankName}</th>
                <td>{proposal.participantName}</td>
                <td>{proposal.memberId}</td>
                <td>{proposal.status === 'rejected' ? `rejected by ${proposal.decidedBy?.name ?? '—'}` : 'to confirm'}</td>
                <td class="row-actions">
                  {canChange && proposal.status === 'pending' && (
                    <>
                      <button type="button" disabled={busy} aria-label={`Confirm ${proposal.bankName}`} onClick={() => void decide(proposal.bic, 'confirm')}>
                        Confirm
                      </button>
                      <button type="button" class="danger-quiet" disabled={busy} aria-label={`Reject ${proposal.bankName}`} onClick={() => void decide(proposal.bic, 'reject')}>
                        Reject
                      </button>
                    </>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}
