import { useState } from 'preact/hooks';
import { announce } from '../announce';
import type { PartnerView as Partner } from '@partner-gateway/contract/admin-partners';
import { admin, ProposedChange } from '../api';
import { ListSettingForm } from '../components/list-setting-form';
import { PartnerAuthForm } from '../components/partner-auth-form';
import { partnerKeys } from '../components/partner-keys-section';
import { partnerCertificates } from '../components/partner-certificates-section';
import { PartnerSubresourceSection } from '../components/partner-subresource-section';
import { PartnerPeople } from '../components/partner-people';
import { allowlistProblems, splitAllowlist } from '../cidr';
import { AuditTable } from '../components/audit-table';
import { ConfirmDialog } from '../components/confirm-dialog';
import { errorsFrom, FormAlert } from '../components/forms';
import { LoadState, PageTitle, useLoad } from '../components/page';
import { ShownOnce } from '../components/secret';
import { Time } from '../components/time';
import { useCan } from '../identity';
import { generatePassword } from '../password';
import { RewardTypesForm } from '../components/reward-types-form';
import { navigate } from '../router';
import { ALLOWLIST_HINT } from './partner-new';

const RECENT_CALLS = 20;

type Pending = 'block' | 'unblock' | 'reset' | 'delete' | null;

/** One partner: its settings, each changed through PATCH /admin/v1/partners/:login, its keys and certificates (PUT/DELETE …/jwks, …/certificates), and its recent calls. */
export function PartnerPage({ login }: { login: string }) {
  const canWrite = useCan('partners.write');
  const canCredentials = useCan('partners.credentials');
  const partner = useLoad(() => admin.partners.get(login), login);
  const calls = useLoad(() => admin.audit.query({ partner: login, limit: String(RECENT_CALLS) }), login);
  const activity = useLoad(() => admin.partners.activity([login]).then((body) => body.partners[0]?.lastSuccessfulCall ?? null), login);
  const [pending, setPending] = useState<Pending>(null);
  const [busy, setBusy] = useState(false);
  const [actionError, setActionError] = useState<string[]>([]);
  const [newPassword, setNewPassword] = useState<{ password: string; held: boolean } | null>(null);

  async function refresh() {
    await Promise.all([partner.reload(), calls.reload()]);
  }

  async function perform(action: Exclude<Pending, null>) {
    setBusy(true);
    setActionError([]);
    try {
      if (action === 'delete') {
        await admin.partners.remove(login);
        announce(`Partner ${login} was deleted.`);
        navigate('#/partners');
        return;
      }
      if (action === 'reset') {
        // The password is made here and only its hash leaves: shown to the operator who asked, whether the change
        // applies at once or waits for a second operator, since nobody can see it afterwards.
        const password = generatePassword();
        try {
          await admin.partners.update(login, { password });
          setNewPassword({ password, held: false });
          announce(`The password of ${login} was reset; its tokens no longer work.`);
        } catch (error) {
          if (!(error instanceof ProposedChange)) throw error;
          setNewPassword({ password, held: true });
        }
      } else {
        const status = action === 'block' ? 'blocked' : 'active';
        await admin.partners.update(login, { status });
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
        {newPassword.held && (
          <p class="notice" data-testid="password-held">
            The reset waits for a second operator's approval: this password works, and the old one stops, once it is approved.
          </p>
        )}
        <ShownOnce label={`New password of ${login}`} secret={newPassword.password} onDone={() => setNewPassword(null)} />
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
            <dt>Authentication</dt>
            <dd data-testid="partner-auth">
              {data.authMethods.join(', ')}; {data.requireSenderConstrainedTokens ? 'DPoP-bound tokens required' : 'bearer tokens allowed'}
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
            {!canWrite ? null : data.status === 'active' ? (
              <button type="button" class="danger" onClick={() => setPending('block')}>
                Block partner
              </button>
            ) : (
              <button type="button" class="primary" onClick={() => setPending('unblock')}>
                Unblock partner
              </button>
            )}
            {canCredentials && (
              <button type="button" onClick={() => setPending('reset')}>
                Reset password
              </button>
            )}
            {canWrite && (
              <button type="button" class="danger-quiet" onClick={() => setPending('delete')}>
                Delete partner
              </button>
            )}
          </div>

          {canWrite && <AllowlistForm key={`ips-${data.updatedAt}`} partner={data} onSaved={refresh} />}
          {canWrite && <RewardTypesForm key={`rewards-${data.updatedAt}`} partner={data} onSaved={refresh} />}
          <PartnerAuthForm key={`auth-${data.updatedAt}`} partner={data} onSaved={refresh} />
          <PartnerSubresourceSection key={`keys-${data.updatedAt}`} subresource={partnerKeys} partner={data} onSaved={refresh} />
          <PartnerSubresourceSection key={`certificates-${data.updatedAt}`} subresource={partnerCertificates} partner={data} onSaved={refresh} />
          <PartnerPeople login={login} />

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

function AllowlistForm({ partner, onSaved }: { partner: Partner; onSaved: () => Promise<void> }) {
  return (
    <ListSettingForm
      login={partner.login}
      setting="ipAllowlist"
      values={partner.ipAllowlist}
      sectionId="allowlist"
      title="IP allowlist"
      label="Addresses and CIDRs"
      hint={ALLOWLIST_HINT}
      notSavedTitle="The allowlist was not saved"
      saveLabel="Save allowlist"
      multiline
      split={splitAllowlist}
      problems={allowlistProblems}
      saved={(values) => `The IP allowlist of ${partner.login} was saved (${values.length} entr${values.length === 1 ? 'y' : 'ies'}).`}
      onSaved={onSaved}
    />
  );
}
