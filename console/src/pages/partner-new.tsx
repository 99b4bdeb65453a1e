import { useState } from 'preact/hooks';
import { announce } from '../announce';
import { admin, ProposedChange } from '../api';
import { useMutation } from '../components/use-mutation';
import { allowlistProblems, splitAllowlist } from '../cidr';
import { Field, FormAlert, type FormErrors, hasErrors, noErrors } from '../components/forms';
import { PageTitle } from '../components/page';
import { ShownOnce } from '../components/secret';
import { generatePassword } from '../password';
import { LOGIN_REGEXP } from '@partner-gateway/contract/patterns';
import { RewardTypeChoice, useRewardTypeCatalogue } from '../components/reward-type-choice';
import { navigate, partnerHref } from '../router';

export const ALLOWLIST_HINT = 'One address or CIDR per line (203.0.113.7, 203.0.113.0/24, 2001:db8::/32). An empty list allows no address.';

/** A new partner, with a strong password generated here and shown once. */
export function NewPartnerPage() {
  const [login, setLogin] = useState('');
  const [allowlist, setAllowlist] = useState('');
  const catalogue = useRewardTypeCatalogue();
  const [rewards, setRewards] = useState<string[]>(['sbp']);
  const [status, setStatus] = useState<'active' | 'blocked'>('active');
  const { busy, errors, setErrors, run } = useMutation(['login', 'ipAllowlist', 'rewardTypes', 'status', 'password'], 'login');
  // The partner's login and the password made here: shown once, whether it was created or waits for approval.
  const [created, setCreated] = useState<{ login: string; password: string; held: boolean } | null>(null);

  async function submit(event: Event) {
    event.preventDefault();
    const ipAllowlist = splitAllowlist(allowlist);
    // Only what the catalogue offers (sbp is ticked before it has loaded, and may not be in it).
    const rewardTypes = rewards.filter((type) => catalogue.data?.includes(type));
    const checked: FormErrors = { fields: {}, form: [] };
    if (!LOGIN_REGEXP.test(login.trim())) {
      checked.fields.login = ['3 to 64 characters: letters, digits and . _ @ -, starting with a letter or digit.'];
    }
    const badEntries = allowlistProblems(ipAllowlist);
    if (badEntries.length > 0) checked.fields.ipAllowlist = badEntries;
    if (catalogue.data === undefined) checked.fields.rewardTypes = ['The gateway’s reward types have not loaded: reload the page.'];
    if (hasErrors(checked)) {
      setErrors({ ...checked, form: ['Correct the fields marked below.'] });
      return;
    }
    setErrors(noErrors);
    const password = generatePassword();
    await run(async () => {
      try {
        const partner = await admin.partners.create({ login: login.trim(), password, ipAllowlist, rewardTypes, status });
        setCreated({ login: partner.login, password, held: false });
        announce(`Partner ${partner.login} was created.`);
      } catch (error) {
        // Held for a second operator: nobody can see this password afterwards, so it is shown now.
        if (!(error instanceof ProposedChange)) throw error;
        setCreated({ login: login.trim(), password, held: true });
      }
    });
  }

  if (created) {
    return (
      <>
        <PageTitle title={created.held ? `Partner ${created.login} proposed` : `Partner ${created.login} created`} />
        {created.held && (
          <p class="notice" data-testid="partner-held">
            The new partner waits for a second operator's approval: it exists, with this password, once it is approved.
          </p>
        )}
        <ShownOnce label={`Password of ${created.login}`} secret={created.password} onDone={() => navigate(created.held ? '#/approvals' : partnerHref(created.login))} />
      </>
    );
  }

  return (
    <>
      <PageTitle title="New partner" />
      <p>
        The partner's password is generated when you create it (24 random characters) and shown once.
      </p>
      <FormAlert errors={errors.form} title="The partner was not created" />
      <form onSubmit={submit} noValidate class="form">
        <Field id="login" label="Login" hint="3 to 64 characters: letters, digits and . _ @ -" errors={errors.fields.login}>
          {(control) => <input {...control} autoComplete="off" spellcheck={false} value={login} onInput={(event) => setLogin(event.currentTarget.value)} />}
        </Field>
        <Field id="ipAllowlist" label="IP allowlist" hint={ALLOWLIST_HINT} errors={errors.fields.ipAllowlist}>
          {(control) => <textarea {...control} rows={4} spellcheck={false} value={allowlist} onInput={(event) => setAllowlist(event.currentTarget.value)} />}
        </Field>
        <RewardTypeChoice catalogue={catalogue} value={rewards} onChange={setRewards} errors={errors.fields.rewardTypes} />
        <Field id="status" label="Status" errors={errors.fields.status}>
          {(control) => (
            <select {...control} value={status} onChange={(event) => setStatus(event.currentTarget.value as 'active' | 'blocked')}>
              <option value="active">Active: may call the API</option>
              <option value="blocked">Blocked: refused until unblocked</option>
            </select>
          )}
        </Field>
        {errors.fields.password && <FormAlert errors={errors.fields.password} />}
        <div class="actions">
          <button type="submit" class="primary" disabled={busy}>
            {busy ? 'Creating…' : 'Create partner'}
          </button>
          <a class="button" href="#/partners">
            Cancel
          </a>
        </div>
      </form>
    </>
  );
}
