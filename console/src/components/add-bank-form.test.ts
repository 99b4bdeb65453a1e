import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { h, render } from 'preact';
import { act } from 'preact/test-utils';
import { openDom } from '../../../test/support/dom';
import { testBackends } from '../../../test/support/test-databases';
import { startTestGateway, TEST_ADMIN_TOKEN, type TestGateway } from '../../../test/support/test-gateway';
import { waitFor } from '../../../test/support/wait-for';
import { saveToken } from '../session';
import { AddBankForm } from './add-bank-form';

// The form rendered in happy-dom, its calls going over HTTP to a real admin API: what the operator types is checked
// by the gateway's own rules, and the messages land under the fields they concern.
const [backend] = testBackends();

describe('the add-bank form against a running admin API', () => {
  let t: TestGateway;
  let dom: ReturnType<typeof openDom>;
  /** The page's container, as the DOM's types (the console's) see happy-dom's element. */
  const container = () => dom.container as unknown as HTMLElement;
  let added = 0;
  before(async () => {
    t = await startTestGateway(backend!);
    const address = await t.admin.listen({ host: '127.0.0.1', port: 0 });
    dom = openDom(`${address}/console/`);
    saveToken(TEST_ADMIN_TOKEN);
    await act(() => render(h(AddBankForm, { onAdded: async () => void added++ }), container()));
  });
  after(async () => {
    await dom.close();
    await t.close();
  });

  const field = (name: string) => container().querySelector<HTMLInputElement>(`#bank-${name}`)!;
  async function type(name: string, value: string) {
    await act(() => {
      field(name).value = value;
      field(name).dispatchEvent(new window.Event('input', { bubbles: true }));
    });
  }
  const submit = () => act(() => void container().querySelector('form')!.dispatchEvent(new window.Event('submit', { bubbles: true, cancelable: true })));
  const errorOf = (name: string) => container().querySelector(`#bank-${name}-error`)?.textContent ?? '';

  it('when the operator types a BIC a spreadsheet mangled, then the gateway refuses it and the reason stands under the BIC, nothing added', async () => {
    await type('bic', '44525225');
    await type('name', 'Сбербанк');
    await submit();
    await waitFor(() => errorOf('bic') !== '', { message: 'the BIC refused' });
    assert.match(errorOf('bic'), /leading 0/);
    assert.equal(field('bic').getAttribute('aria-invalid'), 'true');
    assert.equal(added, 0);
    assert.equal((await t.gateway.admin.banks.list()).some((bank) => bank.bic === '44525225'), false);
  });

  it('when every field is valid, then the bank is added with its curated fields, the form empties and the list is refreshed', async () => {
    await type('bic', '049999001');
    await type('name', 'Тестовый банк');
    await type('sbpMemberId', '100000000777');
    await submit();
    await waitFor(() => added === 1, { message: 'the list refreshed' });
    const bank = (await t.gateway.admin.banks.list()).find((row) => row.bic === '049999001');
    assert.deepEqual([bank?.name, bank?.sbpMemberId, bank?.nameEn], ['Тестовый банк', '100000000777', null]);
    assert.equal(field('bic').value, '');
    assert.equal(errorOf('bic'), '');
  });
});
