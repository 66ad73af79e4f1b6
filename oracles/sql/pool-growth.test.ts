import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { FREE_CORE, mayGrow, PARENT_BUSY, startsChildrenAtOnce, WaitWatch, type GrowthWindow } from './pool-growth.ts';

const window = (w: Partial<GrowthWindow> = {}): GrowthWindow => ({
  waitedMs: 60,
  startupMs: 50,
  parentBusy: 0.1,
  liveChildren: 1,
  cores: 2,
  ...w,
});

const windows = fc.record({
  waitedMs: fc.double({ min: 0, max: 10_000, noNaN: true }),
  startupMs: fc.double({ min: 1, max: 1000, noNaN: true }),
  parentBusy: fc.double({ min: 0, max: 1, noNaN: true }),
  liveChildren: fc.integer({ min: 1, max: 64 }),
  cores: fc.integer({ min: 1, max: 128 }),
});

describe('when a pool starts another SQLite child', () => {
  it('does on two cores while the parent idles (slow queries), not while it handles cheap replies', () => {
    expect(mayGrow(window())).toBe(true);
    // One child, the parent busy 60 % of the time (cheap lookups): 0.4 of a core left.
    expect(mayGrow(window({ parentBusy: 0.6 }))).toBe(false);
    // On eight cores the same parent still has room for more children…
    expect(mayGrow(window({ parentBusy: 0.6, cores: 8 }))).toBe(true);
    // …but not once it is saturated, however many cores there are.
    expect(mayGrow(window({ parentBusy: PARENT_BUSY, cores: 64 }))).toBe(false);
  });

  it('never before requests have waited a start-up', () => {
    expect(mayGrow(window({ waitedMs: 49.9 }))).toBe(false);
    expect(mayGrow(window({ waitedMs: 50 }))).toBe(true);
    fc.assert(fc.property(windows, (w) => !mayGrow(w) || w.waitedMs >= w.startupMs));
  });

  it('only with a share of a core left, and the parent not saturated', () => {
    fc.assert(
      fc.property(windows, (w) => {
        const grows = mayGrow(w);
        const left = w.cores - w.liveChildren - w.parentBusy;
        return grows === (w.waitedMs >= w.startupMs && w.parentBusy < PARENT_BUSY && left >= FREE_CORE);
      }),
    );
  });

  it('is monotone: a longer wait, a less busy parent or more cores never turn a yes into a no', () => {
    fc.assert(
      fc.property(
        windows,
        fc.double({ min: 0, max: 1000, noNaN: true }),
        fc.double({ min: 0, max: 1, noNaN: true }),
        fc.integer({ min: 0, max: 64 }),
        (w, moreWait, lessBusy, moreCores) => {
          if (!mayGrow(w)) return true;
          return (
            mayGrow({ ...w, waitedMs: w.waitedMs + moreWait }) &&
            mayGrow({ ...w, parentBusy: w.parentBusy * lessBusy }) &&
            mayGrow({ ...w, cores: w.cores + moreCores }) &&
            !mayGrow({ ...w, liveChildren: w.cores })
          );
        },
      ),
    );
  });

  it('starts the children at once for a request expected to take a start-up or longer', () => {
    expect(startsChildrenAtOnce(undefined, 50)).toBe(false);
    expect(startsChildrenAtOnce(49, 50)).toBe(false);
    expect(startsChildrenAtOnce(50, 50)).toBe(true);
  });
});

describe('the wait watch', () => {
  it("reports a wait once it lasted a start-up, with the parent's utilization over it", async () => {
    const seen = await new Promise<[number, number]>((resolve) => {
      const watch = new WaitWatch(
        () => 40,
        (waited, busy) => resolve([waited, busy]),
      );
      watch.waiting();
      watch.waiting(); // a window already runs: no second one
      const until = performance.now() + 30;
      while (performance.now() < until); // the parent busy for most of the window
    });
    expect(seen[0]).toBeGreaterThanOrEqual(39);
    expect(seen[1]).toBeGreaterThan(0.5);
    expect(seen[1]).toBeLessThanOrEqual(1);
  });

  it("reports at least the planned window, though the loop's clock was stale when it began", async () => {
    const waited = await new Promise<number>((resolve) => {
      const until = performance.now() + 30;
      while (performance.now() < until); // the event loop's clock is now 30 ms behind
      new WaitWatch(
        () => 40,
        (ms) => resolve(ms),
      ).waiting();
    });
    expect(waited).toBeGreaterThanOrEqual(40);
  });

  it('reports an idle parent as such, and nothing once the wait was stopped', async () => {
    const reports: number[] = [];
    const idle = await new Promise<number>((resolve) => {
      new WaitWatch(
        () => 40,
        (_, busy) => resolve(busy),
      ).waiting();
    });
    expect(idle).toBeLessThan(0.5);
    const stopped = new WaitWatch(
      () => 20,
      (_, busy) => reports.push(busy),
    );
    stopped.waiting();
    stopped.stop();
    await new Promise((resolve) => setTimeout(resolve, 60));
    expect(reports).toEqual([]);
  });
});
