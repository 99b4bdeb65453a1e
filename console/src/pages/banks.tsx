import { admin } from '../api';
import { AddBankForm } from '../components/add-bank-form';
import { BankList } from '../components/bank-list';
import { ImportForm } from '../components/bank-import-form';
import { LoadState, PageTitle, useLoad } from '../components/page';
import { useCan } from '../identity';

/** The bank list partners receive, in its order: reorder, add, remove, and import a file with a preview. */
export function BanksPage() {
  const banks = useLoad(() => admin.banks.list().then((body) => body.banks), 'banks');
  const canChange = useCan('banks.write');
  return (
    <>
      <PageTitle title="Banks" />
      <p>Partners receive this list, in this order, from the banks operation.</p>
      {canChange && <ImportForm current={banks.data ?? []} onImported={banks.reload} />}
      {canChange && <AddBankForm onAdded={banks.reload} />}
      <LoadState loaded={banks} what="banks" />
      {banks.data && <BankList key={banks.data.map((bank) => `${bank.bic}:${bank.name}`).join('|')} banks={banks.data} onChanged={banks.reload} />}
    </>
  );
}
