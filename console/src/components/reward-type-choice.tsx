import { SBP_REWARD_TYPE } from '@partner-gateway/contract/patterns';
import { admin } from '../api';
import { useLoad, type Loaded } from './page';

/** The gateway's reward type catalogue (REWARD_TYPES, GET /admin/v1/reward-types), loaded once per page. */
export function useRewardTypeCatalogue(): Loaded<string[]> {
  return useLoad(() => admin.partners.rewardTypes().then((body) => body.rewardTypes), 'reward-types');
}

export interface RewardTypeChoiceProps {
  /** The catalogue, as `useRewardTypeCatalogue` loaded it. */
  catalogue: Loaded<string[]>;
  /** The types ticked. */
  value: readonly string[];
  onChange: (types: string[]) => void;
  errors?: string[] | undefined;
}

/**
 * A partner's reward types as one checkbox per type of the catalogue, so that an operator picks from what the
 * gateway accepts instead of typing a name (`spb` was once accepted for `sbp`). The ticked types come back in
 * the catalogue's order; the gateway checks them again (422 naming the valid ones).
 */
export function RewardTypeChoice({ catalogue, value, onChange, errors = [] }: RewardTypeChoiceProps) {
  const types = catalogue.data ?? [];
  const toggled = (type: string, on: boolean) => types.filter((known) => (known === type ? on : value.includes(known)));
  return (
    <fieldset class={errors.length > 0 ? 'field-invalid' : ''} aria-describedby={['rewardTypes-hint', errors.length > 0 ? 'rewardTypes-error' : ''].filter(Boolean).join(' ')}>
      <legend>Reward types</legend>
      {catalogue.error && <p class="alert">The reward types could not be loaded: {catalogue.error.description}</p>}
      {catalogue.loading && catalogue.data === undefined && <p aria-busy="true">Loading the reward types…</p>}
      {types.map((type) => (
        <label class="choice" key={type}>
          <input type="checkbox" name="rewardTypes" value={type} checked={value.includes(type)} onChange={(event) => onChange(toggled(type, event.currentTarget.checked))} /> {type}
        </label>
      ))}
      <p class="hint" id="rewardTypes-hint">
        The gateway’s catalogue (REWARD_TYPES). The banks operation needs {SBP_REWARD_TYPE}.
      </p>
      {errors.length > 0 && (
        <div class="field-error" id="rewardTypes-error" data-field-error="rewardTypes">
          <p>{errors.join(' ')}</p>
        </div>
      )}
    </fieldset>
  );
}
