import type { PartnerView } from '@partner-gateway/contract/admin-partners';
import { useState } from 'preact/hooks';
import { announce } from '../announce';
import { admin } from '../api';
import { FormAlert } from './forms';
import { useMutation } from './use-mutation';
import { RewardTypeChoice, useRewardTypeCatalogue } from './reward-type-choice';

/**
 * A partner's reward types, ticked from the gateway's catalogue and saved with one PATCH. A type the partner
 * holds that the catalogue no longer lists (`unknownRewardTypes`) is named above the form: it has no checkbox,
 * so saving leaves it out.
 */
export function RewardTypesForm({ partner, onSaved }: { partner: PartnerView; onSaved: () => Promise<void> }) {
  const catalogue = useRewardTypeCatalogue();
  const [types, setTypes] = useState<string[]>(partner.rewardTypes.filter((type) => !partner.unknownRewardTypes.includes(type)));
  const { busy, errors, setErrors, run } = useMutation(['rewardTypes']);

  async function submit(event: Event) {
    event.preventDefault();
    await run(async () => {
      await admin.partners.update(partner.login, { rewardTypes: types });
      announce(`The reward types of ${partner.login} were saved: ${types.join(', ') || 'none'}.`);
      await onSaved();
    });
  }

  const unknown = partner.unknownRewardTypes;
  return (
    <section aria-labelledby="rewards-title">
      <h2 id="rewards-title">Reward types</h2>
      {unknown.length > 0 && (
        <div class="notice unsaved" role="note" data-testid="unknown-reward-types">
          <p>
            {unknown.join(', ')} {unknown.length === 1 ? 'is' : 'are'} not in the gateway’s reward type catalogue (REWARD_TYPES): no partner may be given{' '}
            {unknown.length === 1 ? 'it' : 'them'} any more. Saving the reward types below leaves {unknown.length === 1 ? 'it' : 'them'} out.
          </p>
        </div>
      )}
      <FormAlert errors={errors.form} title="The reward types were not saved" />
      <form onSubmit={submit} noValidate class="form">
        <RewardTypeChoice catalogue={catalogue} value={types} onChange={setTypes} errors={errors.fields.rewardTypes} />
        <div class="actions">
          <button type="submit" class="primary" disabled={busy || catalogue.data === undefined}>
            {busy ? 'Saving…' : 'Save reward types'}
          </button>
        </div>
      </form>
    </section>
  );
}
