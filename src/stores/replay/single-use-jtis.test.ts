import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ReplayStateLost } from './replay-state-lost.js';
import { createSingleUseJtis } from './single-use-jtis.js';

const LOST_AT = 1_800_000_000_500;
const until = new Date(LOST_AT + 120_000);

/** A replay state whose loss is found at the first recovery, and a store that misses its sentinel `misses` times first. */
function scenario(misses: number, options: { claimed?: boolean } = {}) {
  let notBefore = 0;
  const recovered: string[] = [];
  const seen = new Set<string>();
  let left = misses;
  const jtis = createSingleUseJtis(
    {
      async claim(jti) {
        if (left-- > 0) throw new ReplayStateLost('redis:test:', options.claimed);
        return seen.has(jti) ? false : (seen.add(jti), true);
      },
    },
    {
      ready: async () => {},
      notBefore: () => notBefore,
      async recover(scope) {
        recovered.push(scope);
        notBefore = LOST_AT;
      },
    },
  );
  return { jtis, recovered };
}

describe('createSingleUseJtis', () => {
  it('when nothing was lost, then a jti is spent once and replayed after', async () => {
    const { jtis } = scenario(0);
    assert.equal(await jtis.spend('a', { issuedAt: 1, rememberUntil: until }), 'spent');
    assert.equal(await jtis.spend('a', { issuedAt: 1, rememberUntil: until }), 'replayed');
  });

  it('when the store misses its sentinel, then the loss is recovered and a credential issued before it is state_lost, unclaimed', async () => {
    const { jtis, recovered } = scenario(1);
    assert.equal(await jtis.spend('b', { issuedAt: Math.floor(LOST_AT / 1000), rememberUntil: until }), 'state_lost');
    assert.deepEqual(recovered, ['redis:test:']);
  });

  it('when the store misses its sentinel, then a credential issued after the loss is claimed again and spent', async () => {
    const { jtis } = scenario(1);
    const issuedAt = Math.ceil(LOST_AT / 1000);
    assert.equal(await jtis.spend('c', { issuedAt, rememberUntil: until }), 'spent');
    assert.equal(await jtis.spend('c', { issuedAt, rememberUntil: until }), 'replayed');
  });

  it('when another store claimed the jti while this one missed its sentinel, then it is spent without a second claim (which would call it a replay)', async () => {
    const { jtis } = scenario(1, { claimed: true });
    assert.equal(await jtis.spend('d', { issuedAt: Math.ceil(LOST_AT / 1000), rememberUntil: until }), 'spent');
  });

  it('when the store keeps missing its sentinel, then the spend fails after a few recoveries instead of looping', async () => {
    const { jtis, recovered } = scenario(100);
    await assert.rejects(jtis.spend('e', { issuedAt: Math.ceil(LOST_AT / 1000), rememberUntil: until }), ReplayStateLost);
    assert.equal(recovered.length, 3);
  });
});
