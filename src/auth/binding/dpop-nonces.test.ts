import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createDpopNonces } from './dpop-nonces.js';

const KEY = Buffer.alloc(32, 7);
const ROTATION = 30;
const T0 = 1_800_000_000_000 - (1_800_000_000_000 % (ROTATION * 1000));

describe('DPoP nonces', () => {
  it('when two instances share the master key, then each accepts the nonce the other hands out', () => {
    const a = createDpopNonces(KEY, ROTATION, () => T0);
    const b = createDpopNonces(Buffer.from(KEY), ROTATION, () => T0 + 5_000);
    assert.equal(a.current(), b.current());
    assert.ok(b.accepts(a.current()));
    assert.match(a.current(), /^[A-Za-z0-9_-]{32}$/);
  });

  it('when a slot passes, then a new nonce is handed out and the previous one is still accepted for one more slot', () => {
    let now = T0;
    const nonces = createDpopNonces(KEY, ROTATION, () => now);
    const first = nonces.current();
    now = T0 + ROTATION * 1000;
    assert.notEqual(nonces.current(), first);
    assert.ok(nonces.accepts(first));
    now = T0 + 2 * ROTATION * 1000;
    assert.equal(nonces.accepts(first), false);
  });

  it('when an instance runs ahead by less than a slot, then its nonce is accepted by the others', () => {
    const ahead = createDpopNonces(KEY, ROTATION, () => T0 + ROTATION * 1000);
    const behind = createDpopNonces(KEY, ROTATION, () => T0 + ROTATION * 1000 - 1);
    assert.ok(behind.accepts(ahead.current()));
    const farAhead = createDpopNonces(KEY, ROTATION, () => T0 + 2 * ROTATION * 1000);
    assert.equal(createDpopNonces(KEY, ROTATION, () => T0).accepts(farAhead.current()), false);
  });

  it('when the nonce was made under another key, is altered or is not a string, then it is refused', () => {
    const nonces = createDpopNonces(KEY, ROTATION, () => T0);
    const other = createDpopNonces(Buffer.alloc(32, 8), ROTATION, () => T0);
    assert.equal(nonces.accepts(other.current()), false);
    const good = nonces.current();
    const altered = good.slice(0, -1) + (good.endsWith('A') ? 'B' : 'A');
    for (const value of [altered, good.slice(1), `${good}=`, '', 42, undefined, null, { nonce: good }]) assert.equal(nonces.accepts(value), false, String(value));
  });
});
