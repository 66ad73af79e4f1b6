import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { delayFor, FAULT_KINDS, faultFor, type FaultSchedule } from './fault-schedule.ts';

const body = (i: number) => JSON.stringify({ model: 'm', messages: [{ role: 'user', content: `question ${i}` }] });

describe('fault and delay schedules', () => {
  it('decide each attempt from the seed, the body and the attempt number alone', () => {
    fc.assert(
      fc.property(
        fc.integer(),
        fc.string(),
        fc.nat(6),
        fc.double({ min: 0, max: 1, noNaN: true }),
        (seed, text, attempt, rate) => {
          const schedule: FaultSchedule = { seed, rate };
          const key = { body: text, attempt };
          expect(faultFor(schedule, key)).toBe(faultFor({ ...schedule }, { ...key }));
          expect(delayFor({ seed, maxMs: 100 }, key)).toBe(delayFor({ seed, maxMs: 100 }, { body: text, attempt }));
          const delay = delayFor({ seed, maxMs: 100 }, key);
          expect(delay >= 0 && delay < 100 && Number.isInteger(delay)).toBe(true);
        },
      ),
    );
  });

  it('faults about `rate` of the attempts, with every kind, and attempts fault independently', () => {
    const schedule: FaultSchedule = { seed: 7, rate: 0.2 };
    const first = Array.from({ length: 4000 }, (_, i) => faultFor(schedule, { body: body(i), attempt: 0 }));
    const faulted = first.filter((f) => f !== null);
    expect(faulted.length / first.length).toBeGreaterThan(0.17);
    expect(faulted.length / first.length).toBeLessThan(0.23);
    expect(new Set(faulted)).toEqual(new Set(FAULT_KINDS));
    // Of the attempts that faulted, the retry faults again about as often as any attempt.
    const again = first.flatMap((f, i) => (f === null ? [] : [faultFor(schedule, { body: body(i), attempt: 1 })]));
    expect(again.filter((f) => f !== null).length / again.length).toBeLessThan(0.3);
    expect(faultFor({ seed: 7, rate: 0 }, { body: body(1), attempt: 0 })).toBeNull();
    expect(faultFor({ seed: 7, rate: 1, kinds: ['hang'] }, { body: body(1), attempt: 0 })).toBe('hang');
  });

  it('differ between seeds and reject impossible settings', () => {
    const a = Array.from({ length: 200 }, (_, i) => delayFor({ seed: 1, maxMs: 50 }, { body: body(i), attempt: 0 }));
    const b = Array.from({ length: 200 }, (_, i) => delayFor({ seed: 2, maxMs: 50 }, { body: body(i), attempt: 0 }));
    expect(a).not.toEqual(b);
    expect(() => faultFor({ seed: 1, rate: 1.5 }, { body: '', attempt: 0 })).toThrow(/rate/);
    expect(() => faultFor({ seed: 1, rate: 0.5, kinds: [] }, { body: '', attempt: 0 })).toThrow(/kinds/);
    expect(() => faultFor({ seed: 1, rate: 0.5, kinds: ['nope' as never] }, { body: '', attempt: 0 })).toThrow(
      /unknown fault kind/,
    );
    expect(() => delayFor({ seed: 1, maxMs: -1 }, { body: '', attempt: 0 })).toThrow(/maxMs/);
  });
});
