import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createWaitingRoom } from './waiting-room.js';

describe('waiting room', () => {
  it('wakes the oldest waiter of a key when a place on it is given back, one per place', async () => {
    const room = createWaitingRoom();
    const woken: number[] = [];
    const tickets = [room.ticket(), room.ticket(), room.ticket()];
    // Joined out of order: the line follows the tickets.
    const waits = [2, 0, 1].map((i) => room.wait(['k'], tickets[i]!, 10_000, Date.now() + 10_000).then(() => woken.push(i)));
    assert.ok(room.occupied(['k']));
    room.released(['k']);
    await new Promise((resolve) => setImmediate(resolve));
    assert.deepEqual(woken, [0]);
    room.released(['k']);
    room.released(['k']);
    await Promise.all(waits);
    assert.deepEqual(woken, [0, 1, 2]);
    assert.equal(room.occupied(['k']), false);
  });

  it('lets a waiter go after its time when no place is given back, and leaves other keys alone', async (t) => {
    t.mock.timers.enable({ apis: ['setTimeout', 'Date'], now: 0 });
    const room = createWaitingRoom();
    const other = room.wait(['other'], room.ticket(), 10_000, 10_000);
    let otherWoken = false;
    void other.then(() => (otherWoken = true));
    let outcome: string | undefined;
    const waiting = room.wait(['k', 'l'], room.ticket(), 50, 10_000).then((why) => (outcome = why));
    t.mock.timers.tick(49);
    await settle();
    assert.equal(outcome, undefined, 'still in line before its poll time');
    t.mock.timers.tick(1);
    await waiting;
    assert.equal(outcome, 'timed out');
    room.released(['k', 'l']);
    await settle();
    assert.equal(otherWoken, false);
    assert.equal(room.occupied(['k', 'l']), false);
    room.released(['other']);
    await other;
  });

  it('lets only the first in line poll; those behind it wait their turn, or their deadline', async (t) => {
    t.mock.timers.enable({ apis: ['setTimeout', 'Date'], now: 0 });
    const room = createWaitingRoom();
    const at: Record<string, number> = {};
    const wait = (name: string, deadline: number) => room.wait(['k'], room.ticket(), 40, deadline).then(() => (at[name] = Date.now()));
    const all = Promise.all([wait('first', 10_000), wait('second', 10_000), wait('third', 10_000), wait('impatient', 20)]);
    for (let ms = 0; ms < 200; ms += 10) {
      t.mock.timers.tick(10);
      await settle();
    }
    await all;
    // Each polls only once first in line: one after the other, not all after 40 ms; the deadline holds behind the line.
    assert.deepEqual(at, { impatient: 20, first: 40, second: 80, third: 120 });
  });
});

/** Lets the promises a timer's callback resolved run (setImmediate is not among the mocked timers). */
function settle(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}
