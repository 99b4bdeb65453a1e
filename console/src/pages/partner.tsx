import { useState } from 'preact/hooks';
import { announce } from '../announce';
import { ApiError, call, type AuditPage, type Partner, type PartnerActivity, withQuery } from '../api';
import { allowlistProblems, splitAllowlist } from '../cidr';
import { AuditTable } from '../components/audit-table';
import { ConfirmDialog } from '../components/confirm-dialog';
import { errorsFrom, Field, FormAlert, type FormErrors, noErrors } from '../components/forms';
import { LoadState, PageTitle, useLoad } from '../components/page';
import { ShownOnce } from '../components/secret';
import { Time } from '../components/time';
import { generatePassword } from '../password';
import { rewardTypeProblems, splitRewardTypes } from '../reward-types';
import { navigate } from '../router';
import { ALLOWLIST_HINT, REWARDS_HINT } from './partner-new';

const RECENT_CALLS = 20;

type Pending = 'block' | 'unblock' | 'reset' | 'delete' | null;

/** One partner: its settings, each changed through PATCH /admin/v1/partners/:login, and its recent calls. */
export function PartnerPage({ login }: { login: string }) {
  const path = `/admin/v1/partners/${encodeURIComponent(login)}`;
  const partner = useLoad(() => call<Partner>('GET', path), login);
  const calls = useLoad(() => call<AuditPage>('GET', withQuery('/admin/v1/audit', { partner: login, limit: String(RECENT_CALLS) })), login);
  const activity = useLoad(
    () => call<{ partners: PartnerActivity[] }>('GET', `/admin/v1/partner-activity?logins=${encodeURIComponent(login)}`).then((body) => body.partners[0]?.lastSuccessfulCall ?? null),
    login,
  );
  const [pending, setPending] = useState<Pending>(null);
  const [busy, setBusy] = useState(false);
  const [actionError, setActionError] = useState<string[]>([]);
  const [newPassword, setNewPassword] = useState<string | null>(null);

  async function refresh() {
    await Promise.all([partner.reload(), calls.reload()]);
  }

  async function perform(action: Exclude<Pending, null>) {
    setBusy(true);
    setActionError([]);
    try {
      if (action === 'delete') {
        await call('DELETE', path);
        announce(`Partner ${login} was deleted.`);
        navigate('#/partners');
        return;
      }
      if (action === 'reset') {
        const password = generatePassword();
        await call('PATCH', path, { password });
        setNewPassword(password);
        announce(`The password of ${login} was reset; its tokens no longer work.`);
      } else {
        const status = action === 'block' ? 'blocked' : 'active';
        await call('PATCH', path, { status });
        announce(`Partner ${login} is now ${status}.`);
      }
      await refresh();
    } catch (error) {
      setActionError(errorsFrom(error, []).form);
    } finally {
      setBusy(false);
      setPending(null);
    }
  }

  if (newPassword) {
    return (
      <>
        <PageTitle title={`New password of ${login}`} />
        <ShownOnce label={`New password of ${login}`} secret={newPassword} onDone={() => setNewPassword(null)} />
      </>
    );
  }

  const data = partner.data;
  return (
    <>
      <p class="breadcrumb">
        <a href="#/partners">Partners</a> /
      </p>
      <PageTitle title={`Partner ${login}`} />
      <LoadState loaded={partner} what="partner" />
      {data && (
        <>
          <dl class="summary">
            <dt>Status</dt>
            <dd>
              <span class={`badge badge-${data.status}`} data-testid="partner-status">
                {data.status}
              </span>
            </dd>
            <dt>Last successful call</dt>
            <dd>
              {activity.data ? (
                <>
                  <Time value={activity.data.at} /> ({activity.data.action})
                </>
              ) : activity.data === null ? (
                'never'
              ) : (
                '…'
              )}
            </dd>
            <dt>Created</dt>
            <dd>
              <Time value={data.createdAt} />
            </dd>
            <dt>Last changed</dt>
            <dd>
              <Time value={data.updatedAt} />
            </dd>
          </dl>
          <FormAlert errors={actionError} title="The change was refused" />
          <div class="actions">
            {data.status === 'active' ? (
              <button type="button" class="danger" onClick={() => setPending('block')}>
                Block partner
              </button>
            ) : (
              <button type="button" class="primary" onClick={() => setPending('unblock')}>
                Unblock partner
              </button>
            )}
            <button type="button" onClick={() => setPending('reset')}>
              Reset password
            </button>
            <button type="button" class="danger-quiet" onClick={() => setPending('delete')}>
              Delete partner
            </button>
          </div>

          <AllowlistForm key={`ips-${data.updatedAt}`} path={path} partner={data} onSaved={refresh} />
          <RewardTypesForm key={`rewards-${data.updatedAt}`} path={path} partner={data} onSaved={refresh} />

          <section aria-labelledby="recent-calls">
            <h2 id="recent-calls">Recent calls and changes</h2>
            <LoadState loaded={calls} what="audit entries" />
            {calls.data && <AuditTable entries={calls.data.entries} caption={`The last ${RECENT_CALLS} audit entries of ${login}`} showPartner={false} />}
            <p>
              <a href={`#/audit?partner=${encodeURIComponent(login)}`}>All audit entries of {login}</a>
            </p>
          </section>
        </>
      )}
      <ConfirmDialog
        open={pending === 'block'}
        title={`Block ${login}?`}
        confirmLabel="Block"
        danger
        busy={busy}
        onConfirm={() => void perform('block')}
        onCancel={() => setPending(null)}
      >
        <p>Its logins and banks calls are refused from the next request on, and every access and refresh token it holds stops working. Unblocking does not bring those tokens back.</p>
      </ConfirmDialog>
      <ConfirmDialog open={pending === 'unblock'} title={`Unblock ${login}?`} confirmLabel="Unblock" busy={busy} onConfirm={() => void perform('unblock')} onCancel={() => setPending(null)}>
        <p>It may log in again with its password.</p>
      </ConfirmDialog>
      <ConfirmDialog
        open={pending === 'reset'}
        title={`Reset the password of ${login}?`}
        confirmLabel="Reset password"
        danger
        busy={busy}
        onConfirm={() => void perform('reset')}
        onCancel={() => setPending(null)}
      >
        <p>A new password is generated and shown once. The old one stops working at once, and so do the partner's tokens.</p>
      </ConfirmDialog>
      <ConfirmDialog
        open={pending === 'delete'}
        title={`Delete ${login}?`}
        confirmLabel="Delete partner"
        danger
        busy={busy}
        onConfirm={() => void perform('delete')}
        onCancel={() => setPending(null)}
      >
        <p>The partner and its tokens are removed for good; its audit entries stay.</p>
      </ConfirmDialog>
    </>
  );
}

function AllowlistForm({ path, partner, onSaved }: { path: string; partner: Partner; onSaved: () => Promise<void> }) {
  const [text, setText] = useState(partner.ipAllowlist.join('\n'));
  const [errors, setErrors] = useState<FormErrors>(noErrors);
  const [busy, setBusy] = useState(false);
  async function submit(event: Event) {
    event.preventDefault();
    const ipAllowlist = splitAllowlist(text);
    const problems = allowlistProblems(ipAllowlist);
    if (problems.length > 0) {
      setErrors({ fields: { ipAllowlist: problems }, form: [] });
      return;
    }
    setBusy(true);
    try {
      await call('PATCH', path, { ipAllowlist });
      setErrors(noErrors);
      announce(`The IP allowlist of ${partner.login} was saved (${ipAllowlist.length} entr${ipAllowlist.length === 1 ? 'y' : 'ies'}).`);
      await onSaved();
    } catch (error) {
      setErrors(errorsFrom(error, ['ipAllowlist']));
    } finally {
      setBusy(false);
    }
  }
  return (
    <section aria-labelledby="allowlist-title">
      <h2 id="allowlist-title">IP allowlist</h2>
      <FormAlert errors={errors.form} title="The allowlist was not saved" />
      <form onSubmit={submit} noValidate class="form">
        <Field id="ipAllowlist" label="Addresses and CIDRs" hint={ALLOWLIST_HINT} errors={errors.fields.ipAllowlist}>
          {(control) => <textarea {...control} rows={Math.max(3, partner.ipAllowlist.length + 1)} spellcheck={false} value={text} onInput={(event) => setText(event.currentTarget.value)} />}
        </Field>
        <div class="actions">
          <button type="submit" class="primary" disabled={busy}>
            {busy ? 'Saving…' : 'Save allowlist'}
          </button>
        </div>
      </form>
    </section>
  );
}

function RewardTypesForm({ path, partner, onSaved }: { path: string; partner: Partner; onSaved: () => Promise<void> }) {
  const [text, setText] = useState(partner.rewardTypes.join(', '));
  const [errors, setErrors] = useState<FormErrors>(noErrors);
  const [busy, setBusy] = useState(false);
  async function submit(event: Event) {
    event.preventDefault();
    const rewardTypes = splitRewardTypes(text);
    const problems = rewardTypeProblems(rewardTypes);
    if (problems.length > 0) {
      setErrors({ fields: { rewardTypes: problems }, form: [] });
      return;
    }
    setBusy(true);
    try {
      await call('PATCH', path, { rewardTypes });
      setErrors(noErrors);
      announce(`The reward types of ${partner.login} were saved.`);
      await onSaved();
    } catch (error) {
      setErrors(errorsFrom(error instanceof ApiError ? error : new ApiError(0, String(error)), ['rewardTypes']));
    } finally {
      setBusy(false);
    }
  }
  return (
    <section aria-labelledby="rewards-title">
      <h2 id="rewards-title">Reward types</h2>
      <FormAlert errors={errors.form} title="The reward types were not saved" />
      <form onSubmit={submit} noValidate class="form">
        <Field id="rewardTypes" label="Reward types" hint={REWARDS_HINT} errors={errors.fields.rewardTypes}>
          {(control) => <input {...control} spellcheck={false} value={text} onInput={(event) => setText(event.currentTarget.value)} />}
        </Field>
        <div class="actions">
          <button type="submit" class="primary" disabled={busy}>
            {busy ? 'Saving…' : 'Save reward types'}
          </button>
        </div>
      </form>
    </section>
  );
}
