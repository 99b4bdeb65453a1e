import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { h, render } from 'preact';
import { act } from 'preact/test-utils';
import { openDom } from '../../../test/support/dom';
import { ApiError, ProposedChange } from '../api';
import { TextFields, type FormErrors } from './forms';
import { useMutation, type Mutation } from './use-mutation';

describe('the console mutation hook, rendered in a DOM', () => {
  let dom: ReturnType<typeof openDom>;
  /** The page's container, as the DOM's types (the console's) see happy-dom's element. */
  const container = () => dom.container as unknown as HTMLElement;
  let mutation: Mutation;
  before(() => {
    dom = openDom();
  });
  after(() => dom.close());

  /** A form with two fields whose state is the hook's: what the tests read back. */
  function Form({ values }: { values: Record<'bic' | 'name', string> }) {
    mutation = useMutation(['bic', 'name'], 'bic');
    return h('form', { 'aria-busy': String(mutation.busy) }, h(TextFields<'bic' | 'name'>, {
      fields: ['bic', 'name'],
      idPrefix: 'bank',
      labels: { bic: 'BIC', name: 'Name' },
      hints: { bic: '9 digits', name: 'As partners see it' },
      numeric: { bic: true, name: false },
      values,
      errors: mutation.errors,
      onChange: () => {},
    }));
  }
  const show = () => act(() => render(h(Form, { values: { bic: '04452', name: 'Сбер' } }), container()));
  const query = (selector: string) => container().querySelector(selector);

  it('when a change runs, then the form is busy until it ends, and a success clears the errors and runs the follow-up', async () => {
    await show();
    let finish!: () => void;
    let followed = 0;
    let running!: Promise<boolean>;
    await act(() => {
      running = mutation.run(() => new Promise<void>((resolve) => (finish = resolve)), () => void followed++);
    });
    assert.equal(query('form')!.getAttribute('aria-busy'), 'true');
    await act(async () => {
      finish();
      assert.equal(await running, true);
    });
    assert.equal(query('form')!.getAttribute('aria-busy'), 'false');
    assert.equal(followed, 1);
    assert.deepEqual(mutation.errors, { fields: {}, form: [] });
  });

  it("when the API refuses a field, then its message is under that field's input, tied to it for a screen reader, and nothing follows", async () => {
    await show();
    let followed = 0;
    await act(async () => {
      const done = await mutation.run(
        () => Promise.reject(new ApiError(422, 'The request is invalid', [{ field: 'bic', message: 'must be a string of 9 digits starting with 04' }])),
        () => void followed++,
      );
      assert.equal(done, false);
    });
    const input = query('#bank-bic')!;
    assert.equal(input.getAttribute('aria-invalid'), 'true');
    assert.match(input.getAttribute('aria-describedby') ?? '', /bank-bic-error/);
    assert.match(query('#bank-bic-error')!.textContent ?? '', /BIC must be a string of 9 digits starting with 04/);
    assert.equal(query('#bank-name')!.getAttribute('aria-invalid'), null, 'the other field is not marked');
    assert.equal(followed, 0);
    assert.equal(input.getAttribute('inputmode'), 'numeric');
  });

  it('when a 409 without problems comes back, then it goes to the conflict field; when the change is held for approval, then no error shows', async () => {
    await show();
    await act(async () => {
      await mutation.run(() => Promise.reject(new ApiError(409, 'A bank with this BIC is already listed')));
    });
    assert.deepEqual(mutation.errors, { fields: { bic: ['A bank with this BIC is already listed'] }, form: [] } satisfies FormErrors);
    await act(async () => {
      assert.equal(await mutation.run(() => Promise.reject(new ProposedChange({} as never))), false);
    });
    assert.deepEqual(mutation.errors, { fields: {}, form: [] });
  });

  it('when a change names its own way of reading a refusal, then that way is used for it alone', async () => {
    await show();
    await act(async () => {
      await mutation.run(() => Promise.reject(new Error('the file could not be read')), undefined, (error) => ({ fields: { name: [(error as Error).message] }, form: [] }));
    });
    assert.match(query('#bank-name-error')!.textContent ?? '', /the file could not be read/);
    await act(async () => {
      await mutation.run(() => Promise.reject(new Error('offline')));
    });
    assert.deepEqual(mutation.errors, { fields: {}, form: ['offline'] }, 'the next change reads refusals the hook\'s way again');
  });
});
