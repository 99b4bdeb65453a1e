import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { h, render } from 'preact';
import { act } from 'preact/test-utils';
import { SELF_KEYS_PATH } from '@partner-gateway/contract/paths';
import { openDom } from '../../../test/support/dom';
import { startListeningGateway } from '../../../test/support/key-partner';
import { testKey } from '../../../test/support/oauth-client';
import { selfServiceCaller, selfServicePartner } from '../../../test/support/self-service-caller';
import { testBackends } from '../../../test/support/test-databases';
import { TEST_ADMIN_TOKEN, type TestGateway } from '../../../test/support/test-gateway';
import { waitFor } from '../../../test/support/wait-for';
import { saveToken } from '../session';
import { CredentialEnds } from './credential-ends';

// The partners page's list of coming credential ends, rendered in happy-dom, its call going over HTTP to a real
// admin API, after a partner rotated its key through the self-service API.
const [backend] = testBackends();

describe('the credentials-ending list of the partners page', () => {
  let t: TestGateway & { url: string };
  let consoleUrl: string;
  let dom: ReturnType<typeof openDom> | undefined;
  const container = () => dom!.container as unknown as HTMLElement;
  before(async () => {
    t = await startListeningGateway(backend!);
    consoleUrl = `${await t.admin.listen({ host: '127.0.0.1', port: 0 })}/console/`;
  });
  after(async () => {
    await dom?.close();
    await t.close();
  });
  /** The list rendered in a fresh page (the page's fetch is the browser's: the partner's own calls go between two pages). */
  const show = async () => {
    await dom?.close();
    dom = openDom(consoleUrl);
    saveToken(TEST_ADMIN_TOKEN);
    await act(() => render(h(CredentialEnds, {}), container()));
  };

  it('when nothing ends, then it says so; when a partner rotated its key with an overlap, then the old key is listed with its end and a link to the partner', async () => {
    await show();
    const none = await waitFor(() => [...container().querySelectorAll('p')].find((p) => p.textContent?.startsWith('None')), { message: 'the empty state' });
    assert.match(none.textContent ?? '', /within 30 days/);

    await dom!.close();
    dom = undefined;
    const caller = selfServiceCaller(t.url, Date.now);
    const partner = await selfServicePartner(t, caller);
    const rotated = await caller.call(partner.token, 'POST', SELF_KEYS_PATH, { key: (await testKey()).publicJwk, overlapSeconds: 3600 }, partner.dpopKey);
    assert.equal(rotated.status, 200);
    await show();
    const row = await waitFor(() => container().querySelector('[data-testid=credential-ends] tbody tr'), { message: 'the row' });
    assert.match(row.textContent ?? '', new RegExp(`${partner.login}.*private_key_jwt key.*${partner.key.kid}`));
    assert.equal(row.querySelector('a')?.getAttribute('href'), `#/partner/${partner.login}`);
    assert.ok(row.querySelector('time')?.getAttribute('datetime'), 'the end, as a time');
  });
});
