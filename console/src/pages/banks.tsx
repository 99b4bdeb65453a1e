import { useState } from 'preact/hooks';
import { admin } from '../api';
import { AddBankForm } from '../components/add-bank-form';
import { BankAdmissionQueue } from '../components/bank-admission-queue';
import { BankHistory } from '../components/bank-history';
import { ImportForm } from '../components/bank-import-form';
import { BankList } from '../components/bank-list';
import { BankSyncPanel } from '../components/bank-sync-panel';
import { BankParticipantsPanel } from '../components/bank-participants-panel';
import { LoadState, PageTitle, useLoad } from '../components/page';
import { useCan } from '../identity';

type Tab = 'list' | 'queue' | 'history' | 'sync' | 'participants';

/**
 * The bank list partners receive: the list (search, paging, move, edit curated fields, add, remove, import with a
 * preview of every change), the review queue of new registry banks (admit, exclude), its history (each version's diff, restore) and the registry sync (runs, preview, the
 * held run to approve or reject). Every change is a version.
 */
export function BanksPage() {
  const banks = useLoad(() => admin.banks.list(), 'banks');
  const sync = useLoad(() => admin.bankSync.status(), 'bank-sync');
  const queue = useLoad(() => admin.bankAdmissions.queue(), 'bank-admissions');
  const canChange = useCan('banks.write');
  const [tab, setTab] = useState<Tab>('list');
  return (
    <>
      <PageTitle title="Banks" />
      <p>Partners receive this list, in this order, from the banks operation. Every change makes a new version of it.</p>
      <div role="tablist" aria-label="Banks" class="tabs">
        <button type="button" role="tab" id="tab-list" aria-selected={tab === 'list'} aria-controls="panel-list" onClick={() => setTab('list')}>
          List
        </button>
        <button type="button" role="tab" id="tab-queue" aria-selected={tab === 'queue'} aria-controls="panel-queue" onClick={() => setTab('queue')}>
          Review queue{queue.data && queue.data.pending > 0 ? ` (${queue.data.pending})` : ''}
        </button>
        <button type="button" role="tab" id="tab-history" aria-selected={tab === 'history'} aria-controls="panel-history" onClick={() => setTab('history')}>
          History
        </button>
        <button type="button" role="tab" id="tab-sync" aria-selected={tab === 'sync'} aria-controls="panel-sync" onClick={() => setTab('sync')}>
          Registry sync{sync.data?.pending ? ' (1 held)' : ''}
        </button>
        <button type="button" role="tab" id="tab-participants" aria-selected={tab === 'participants'} aria-controls="panel-participants" onClick={() => setTab('participants')}>
          Member ids
        </button>
      </div>
      {tab === 'list' && (
        <div role="tabpanel" id="panel-list" aria-labelledby="tab-list">
          {sync.data?.pending && (
            <p role="note" class="notice">
              A registry sync is held ({sync.data.pending.hold?.reason}): review it in the{' '}
              <button type="button" class="link" onClick={() => setTab('sync')}>
                Registry sync
              </button>{' '}
              tab.
            </p>
          )}
          {canChange && <ImportForm current={banks.data?.banks ?? []} onImported={banks.reload} />}
          {canChange && <AddBankForm onAdded={banks.reload} />}
          <LoadState loaded={banks} what="banks" />
          {banks.data && <BankList banks={banks.data.banks} version={banks.data.version} canChange={canChange} onChanged={banks.reload} />}
        </div>
      )}
      {tab === 'queue' && (
        <div role="tabpanel" id="panel-queue" aria-labelledby="tab-queue">
          <LoadState loaded={queue} what="review queue" />
          {queue.data && <BankAdmissionQueue queue={queue.data} canChange={canChange} onChanged={() => Promise.all([banks.reload(), queue.reload()]).then(() => {})} />}
        </div>
      )}
      {tab === 'sync' && (
        <div role="tabpanel" id="panel-sync" aria-labelledby="tab-sync">
          <BankSyncPanel canChange={canChange} onChanged={() => Promise.all([banks.reload(), sync.reload()]).then(() => {})} />
        </div>
      )}
      {tab === 'participants' && (
        <div role="tabpanel" id="panel-participants" aria-labelledby="tab-participants">
          <BankParticipantsPanel canChange={canChange} onChanged={() => banks.reload().then(() => {})} />
        </div>
      )}
      {tab === 'history' && (
        <div role="tabpanel" id="panel-history" aria-labelledby="tab-history">
          <BankHistory canRestore={canChange} onRestored={banks.reload} />
        </div>
      )}
    </>
  );
}
