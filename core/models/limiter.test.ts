import { describe, expect, it } from 'vitest';
import { createLimiter } from './limiter.ts';

function deferred(): { promise: Promise<void>; resolve: () => void } {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => (resolve = r));
  return { promise, resolve };
}

describe('createLimiter', () => {
  it('rejects a concurrency below 1 or not an integer', () => {
    expect(() => createLimiter(0)).toThrow(/concurrency must be an integer >= 1, got 0/);
    expect(() => createLimiter(1.5)).toThrow(RangeError);
    expect(() => createLimiter(Number.NaN)).toThrow(RangeError);
  });

  it('runs at most `concurrency` functions at once and starts waiters in FIFO order', async () => {
    const limiter = createLimiter(2);
    const gates = Array.from({ length: 5 }, deferred);
    const started: number[] = [];
    const results = gates.map((gate, i) =>
      limiter.run(async () => {
        started.push(i);
        await gate.promise;
        return i * 10;
      }),
    );
    await Promise.resolve();
    expect(started).toEqual([0, 1]);
    expect([limiter.active, limiter.pending]).toEqual([2, 3]);
    gates[1]?.resolve();
    await results[1];
    await Promise.resolve();
    expect(started).toEqual([0, 1, 2]);
    gates[0]?.resolve();
    gates[2]?.resolve();
    gates[3]?.resolve();
    gates[4]?.resolve();
    expect(await Promise.all(results)).toEqual([0, 10, 20, 30, 40]);
    expect(started).toEqual([0, 1, 2, 3, 4]);
    expect([limiter.active, limiter.pending]).toEqual([0, 0]);
  });

  it('frees the slot when a function throws, synchronously or not', async () => {
    const limiter = createLimiter(1);
    await expect(limiter.run(() => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
    await expect(
      limiter.run(() => {
        throw new Error('sync boom');
      }),
    ).rejects.toThrow('sync boom');
    expect(await limiter.run(async () => 'after')).toBe('after');
    expect(limiter.active).toBe(0);
  });

  it('drops an aborted waiter from the queue without running it', async () => {
    const limiter = createLimiter(1);
    const gate = deferred();
    const first = limiter.run(() => gate.promise);
    const controller = new AbortController();
    let ran = false;
    const second = limiter.run(async () => {
      ran = true;
    }, controller.signal);
    expect(limiter.pending).toBe(1);
    controller.abort(new Error('stop waiting'));
    await expect(second).rejects.toThrow('stop waiting');
    expect(limiter.pending).toBe(0);
    gate.resolve();
    await first;
    expect(ran).toBe(false);
    const aborted = AbortSignal.abort();
    await expect(limiter.run(async () => 1, aborted)).rejects.toMatchObject({ name: 'AbortError' });
  });
});
