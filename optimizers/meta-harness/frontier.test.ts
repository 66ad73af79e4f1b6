import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { dominates, paretoFrontier, type FrontierCandidate } from './frontier.ts';

// Small value ranges so that ties (equal passes, equal tokens, identical points) are frequent.
const candidates = fc
  .array(
    fc.record({
      passAtFinal: fc.integer({ min: 0, max: 5 }).map((n) => n / 5),
      meanTokens: fc.integer({ min: 0, max: 6 }).map((n) => n * 100),
    }),
    { maxLength: 30 },
  )
  .map((xs): FrontierCandidate[] => xs.map((x, i) => ({ id: `c${i}`, ...x })));

describe('paretoFrontier', () => {
  it('no member is dominated by any candidate', () => {
    fc.assert(
      fc.property(candidates, (cs) => {
        const members = paretoFrontier(cs);
        return members.every((m) => !cs.some((c) => dominates(c, m)));
      }),
    );
  });

  it('every non-member is dominated by a member', () => {
    fc.assert(
      fc.property(candidates, (cs) => {
        const ids = new Set(paretoFrontier(cs).map((m) => m.id));
        const members = cs.filter((c) => ids.has(c.id));
        return cs.filter((c) => !ids.has(c.id)).every((c) => members.some((m) => dominates(m, c)));
      }),
    );
  });

  it('does not depend on the order of the candidates, and lists members best first (a lower pass only for fewer tokens)', () => {
    fc.assert(
      fc.property(
        candidates.chain((cs) => fc.tuple(fc.constant(cs), fc.shuffledSubarray(cs, { minLength: cs.length }))),
        ([cs, shuffled]) => {
          const a = paretoFrontier(cs);
          expect(paretoFrontier(shuffled)).toEqual(a);
          for (let i = 1; i < a.length; i++) {
            expect(a[i - 1]!.passAtFinal).toBeGreaterThanOrEqual(a[i]!.passAtFinal);
            // Along the frontier a lower pass must buy fewer tokens.
            expect(a[i - 1]!.meanTokens).toBeGreaterThanOrEqual(a[i]!.meanTokens);
          }
        },
      ),
    );
  });

  it('keeps identical points together, drops a lower pass at equal tokens, and keeps an empty input empty', () => {
    const c = (id: string, passAtFinal: number, meanTokens: number) => ({ id, passAtFinal, meanTokens });
    const frontier = paretoFrontier([
      c('cheap', 0.4, 100),
      c('twin-b', 0.8, 500),
      c('twin-a', 0.8, 500),
      c('worse-same-tokens', 0.3, 100),
      c('costly', 0.8, 900),
      c('middle', 0.6, 300),
    ]);
    expect(frontier.map((m) => m.id)).toEqual(['twin-a', 'twin-b', 'middle', 'cheap']);
    expect(paretoFrontier([])).toEqual([]);
  });

  it('rejects invalid scores, naming the candidate', () => {
    expect(() => paretoFrontier([{ id: 'x', passAtFinal: 1.5, meanTokens: 3 }])).toThrow(
      'frontier: candidate x: passAtFinal must be between 0 and 1, got 1.5',
    );
    expect(() =>
      paretoFrontier([
        { id: 'y', passAtFinal: 0.5, meanTokens: NaN },
        { id: 'y', passAtFinal: 0.5, meanTokens: 1 },
      ]),
    ).toThrow(/candidate y: meanTokens must be a finite number ≥ 0, got NaN; candidate y is listed twice/);
  });
});
