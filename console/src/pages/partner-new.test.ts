import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { h, render } from 'preact';
import { act } from 'preact/test-utils';
import { openDom } from '../../../test/support/dom';
import { testBackends } from '../../../test/support/test-databases';
import { startTestGateway, TEST_ADMIN_TOKEN, type TestGateway } from '../../../test/support/test-gateway';
import { waitFor } from '../../../test/support/wait-for';
import { saveToken } from '../session';
import { NewPartnerPage } from './partner-new';

// The page rendered in happy-dom, its calls going over HTTP to a real admin API where creating a partner needs a
// second operator: the password made in the browser is the only copy, so it must be shown even though nothing exists yet.
const [backend] = testBackends();

describe('the new-partner page when creating a partner needs approval', () => {
  let t: TestGateway;
  let dom: ReturnType<typeof openDom>;
  const container = () => dom.container as unknown as HTMLElement;
  before(async () => {
    t = await startTestGateway(backend!);
    const settings = await t.admin.inject({ method: 'PUT', url: '/admin/v1/approvals/settings', headers: { authorization: `Bearer ${TEST_ADMIN_TOKEN}` }, payload: { required: ['partner.create'] } });
    assert.equal(settings.statusCode, 200, settings.body);
    const address = await t.admin.listen({ host: '127.0.0.1', port: 0 });
    dom = openDom(`${address}/console/`);
    saveToken(TEST_ADMIN_TOKEN);
    await act(() => render(h(NewPartnerPage, {}), container()));
  });
  after(async () => {
    await dom.close();
    await t.close();
  });

  async function type(selector: string, value: string) {
    const control = container().querySelector<HTMLInputElement>(selector)!;
    await act(() => {
      control.value = value;
      control.dispatchEvent(new window.Event('input', { bubbles: true }));
    });
  }

  it('when the operator creates a partner, then the page says it waits for approval and shows its password once, and nothing exists yet', async () => {
    await waitFor(() => container().querySelector('input[type=checkbox]'), { message: 'the reward types loaded' });
    await type('#login', 'held-acme');
    await type('#ipAllowlist', '203.0.113.0/24');
    await act(() => void container().querySelector('form')!.dispatchEvent(new window.Event('submit', { bubbles: true, cancelable: true })));
    const notice = await waitFor(() => container().querySelector('[data-testid=partner-held]'), { message: 'the held notice' });
    assert.match(notice.textContent ?? '', /waits for a second operator's approval/);
    const password = container().querySelector('[data-testid=shown-once-secret]')?.textContent?.trim() ?? '';
    assert.equal(password.length, 24, 'the generated password is shown');
    assert.match(container().querySelector('h1')?.textContent ?? '', /held-acme proposed/);
    await assert.rejects(t.gateway.admin.partners.get('held-acme'), /held-acme does not exist/);
    const [proposal] = await t.gateway.admin.approvals.list({ status: 'pending' });
    assert.equal(proposal?.action, 'partner.create');
    assert.ok(!JSON.stringify(proposal).includes(password), 'the proposal never holds the password');
  });
});
