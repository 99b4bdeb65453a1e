import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { h, render } from 'preact';
import { act } from 'preact/test-utils';
import { openDom } from '../../../test/support/dom';
import { startListeningGateway } from '../../../test/support/key-partner';
import { testBackends } from '../../../test/support/test-databases';
import { TEST_ADMIN_TOKEN, type TestGateway } from '../../../test/support/test-gateway';
import { waitFor } from '../../../test/support/wait-for';
import { admin } from '../api';
import { IdentityContext } from '../identity';
import { saveToken } from '../session';
import { PartnerPeople } from './partner-people';

// The partner page's people section in happy-dom, its calls going over HTTP to a real admin API.
const [backend] = testBackends();

describe("the partner page's people in the portal", () => {
  let t: TestGateway & { url: string };
  let dom: ReturnType<typeof openDom> | undefined;
  before(async () => {
    t = await startListeningGateway(backend!);
    dom = openDom(`${await t.admin.listen({ host: '127.0.0.1', port: 0 })}/console/`);
  });
  after(async () => {
    await dom?.close();
    await t.close();
  });

  it('when an operator invites the first partner admin, then the link is shown once and the person is listed as invited', async () => {
    const { login } = await t.addPartner();
    saveToken(TEST_ADMIN_TOKEN);
    const container = dom!.container as unknown as HTMLElement;
    const identity = await admin.session.me();
    await act(() => render(h(IdentityContext.Provider, { value: identity }, h(PartnerPeople, { login })), container));
    await waitFor(() => container.textContent?.includes('Nobody yet'), { message: 'the empty state' });
    const form = await waitFor(() => container.querySelector('form'), { message: 'the invitation form' });
    const input = form.querySelector('input')!;
    await act(() => {
      input.value = 'anna@acme.example';
      input.dispatchEvent(new dom!.window.Event('input', { bubbles: true }) as unknown as Event);
    });
    await act(() => {
      form.dispatchEvent(new dom!.window.Event('submit', { bubbles: true, cancelable: true }) as unknown as Event);
    });
    const link = await waitFor(() => container.querySelector('[data-testid="partner-invitation-link"] code')?.textContent, { message: 'the link' });
    assert.match(link, /\/portal\/#invitation=[A-Za-z0-9_-]{43}$/);
    const row = await waitFor(() => container.querySelector('[data-testid="partner-people"] tbody tr')?.textContent, { message: 'the invited person' });
    assert.match(row, /anna@acme\.example\s*partner-admin\s*invited/);
  });
});
