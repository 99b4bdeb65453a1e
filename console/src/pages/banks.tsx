import { useState } from 'preact/hooks';
import { admin } from '../api';
import { AddBankForm } from '../components/add-bank-form';
import { BankHistory } from '../components/bank-history';
import { ImportForm } from '../components/bank-import-form';
import { BankList } from '../components/bank-list';
import { LoadState, PageTitle, useLoad } from '../components/page';
import { useCan } from '../identity';

type Tab = 'list' | 'history';

/**
 * The bank list partners receive: the list (search, paging, move, edit curated fields, add, remove, import with a
 * preview of every change) and its history (each version's diff, restore). Every change is a version.
 */
export function BanksPage() {
  const banks = useLoad(() => admin.banks.list(), 'banks');
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
        <button type="button" role="tab" id="tab-history" aria-selected={tab === 'history'} aria-controls="panel-history" onClick={() => setTab('history')}>
          History
        </button>
      </div>
      {tab === 'list' && (
        <div role="tabpanel" id="panel-list" aria-labelledby="tab-list">
          {/* The pending registry sync (approve, reject, with its preview) goes here: issue 24's sync part. */}
          {canChange && <ImportForm current={banks.data?.banks ?? []} onImported={banks.reload} />}
          {canChange && <AddBankForm onAdded={banks.reload} />}
          <LoadState loaded={banks} what="banks" />
          {banks.data && <BankList banks={banks.data.banks} version={banks.data.version} canChange={canChange} onChanged={banks.reload} />}
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
