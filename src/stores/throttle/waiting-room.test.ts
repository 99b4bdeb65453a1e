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

  it('lets a waiter go after its time when no place is given back, and leaves other keys alone', async () => {
    const room = createWaitingRoom();
    const other = room.wait(['other'], room.ticket(), 10_000, Date.now() + 10_000);
    let otherWoken = false;
    void other.then(() => (otherWoken = true));
    const started = Date.now();
    await room.wait(['k', 'l'], room.ticket(), 50, Date.now() + 10_000);
    assert.ok(Date.now() - started >= 45);
    room.released(['k', 'l']);
    await new Promise((resolve) => setImmediate(resolve));
    assert.equal(otherWoken, false);
    assert.equal(room.occupied(['k', 'l']), false);
    room.released(['other']);
    await other;
  });

  it('lets only the first in line poll; those behind it wait their turn, or their deadline', async () => {
    const room = createWaitingRoom();
    const started = Date.now();
    const at: Record<string, number> = {};
    const wait = (name: string, deadlineMs: number) => room.wait(['k'], room.ticket(), 40, started + deadlineMs).then(() => (at[name] = Date.now() - started));
    await Promise.all([wait('first', 10_000), wait('second', 10_000), wait('third', 10_000), wait('impatient', 20)]);
    // Each polls only once first in line: one after the other, not all after 40 ms.
    assert.ok(at.second! >= 75 && at.third! >= 110, JSON.stringify(at));
    assert.ok(at.impatient! < at.first!, 'the deadline holds behind the line');
  });
});
