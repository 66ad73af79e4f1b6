import { describe, expect, it } from 'vitest';
import { decideAcceptance, pairedInterval, type PairedOutcome } from './acceptance.ts';
import { findLeaks, leakTokens } from './leak.ts';

describe('leak filter', () => {
  const sources = [
    {
      statement: "How many schools are in 'Alameda' county?",
      programs: ["SELECT COUNT(*) FROM schools WHERE county = 'Alameda' AND enrollment > 250"],
      schema: 'CREATE TABLE schools (county TEXT, enrollment INT)',
    },
    {
      statement: 'Which district has the most students?',
      programs: ['SELECT district_name FROM frpm ORDER BY students DESC LIMIT 1'],
      schema: 'CREATE TABLE frpm (district_name TEXT, students INT)',
    },
    {
      statement: 'Oldest school?',
      programs: ['SELECT s.name FROM schools AS s JOIN openings AS o ON o.sid = s.id ORDER BY o.opened'],
      schema: 'CREATE TABLE schools (id INT, name TEXT); CREATE TABLE openings (sid INT, opened DATE)',
    },
  ];
  const leaks = leakTokens(sources);

  it('collects quoted literals, multi-digit numbers and non-schema identifiers of the diagnosis tasks', () => {
    expect(leaks.has('alameda')).toBe(true);
    expect(leaks.has('250')).toBe(true);
    expect(leaks.has('county')).toBe(false); // schema vocabulary
    expect(leaks.has('select')).toBe(false); // keyword
    expect(leaks.has('s')).toBe(false); // too short to be specific
  });

  it('rejects prompts that mention an instance specific and accepts reusable rules', () => {
    expect(findLeaks("When asked about Alameda, filter county = 'Alameda'.", leaks)).toEqual(['alameda']);
    expect(findLeaks('Use enrollment > 250 for large schools.', leaks)).toEqual(['250']);
    expect(
      findLeaks('Always qualify columns with table aliases and use ORDER BY … LIMIT 1 for superlatives.', leaks),
    ).toEqual([]);
    expect(findLeaks('For example: which district has the most\nstudents?', leaks)).toEqual([
      'which district has the most students?',
    ]);
  });

  it('treats tokens shared by many diagnosis tasks as vocabulary', () => {
    const vowelTasks = Array.from({ length: 6 }, (_, i) => ({
      statement: `task ${i}`,
      programs: [`.*[AEIOUaeiou].*x${i}yz`],
      schema: '',
    }));
    const shared = leakTokens(vowelTasks);
    expect(shared.has('aeiouaeiou')).toBe(false);
    expect(shared.has('x3yz')).toBe(true);
  });
});

describe('adaptive paired acceptance', () => {
  const run = (outcomes: PairedOutcome[], firstSlice = 4) => {
    const asked: number[] = [];
    return decideAcceptance(
      outcomes.length,
      async (i) => {
        asked.push(i);
        return outcomes[i] as PairedOutcome;
      },
      { margin: 0, firstSlice },
    ).then((d) => ({ ...d, asked }));
  };

  it('computes the Agresti–Min paired interval by hand', () => {
    // 4 fixes, 0 breaks, n = 4: b* = 4.5, c* = 0.5, n* = 6; centre 4/6 = 0.6667;
    // var = (5 − 16/6) / 36 = 0.06481, sd 0.25458 → 0.6667 ± 0.49897 = [0.1677, 1.1656 → 1]
    const step = pairedInterval(4, 0, 4);
    expect(step.mean).toBe(1);
    expect(step.low).toBeCloseTo(0.1677, 3);
    expect(step.high).toBe(1);
    // nothing changed on 2 instances: centre 0, var = 1/16 → ±0.49: undecided, not "proof of no effect"
    const none = pairedInterval(0, 0, 2);
    expect(none.low).toBeCloseTo(-0.49, 2);
    expect(none.high).toBeCloseTo(0.49, 2);
  });

  it('adopts early when the first slice is clearly better, without evaluating the rest', async () => {
    const d = await run(['fix', 'fix', 'fix', 'fix', 'break', 'break', 'break', 'break'], 4);
    expect(d.adopt).toBe(true);
    expect(d.asked).toEqual([0, 1, 2, 3]);
    expect(d.steps).toHaveLength(1);
  });

  it('widens while the interval straddles the margin, then decides on the wider slice', async () => {
    const outcomes: PairedOutcome[] = [
      'fix',
      'unchanged',
      'break',
      'fix',
      'fix',
      'fix',
      'fix',
      'fix',
      'fix',
      'fix',
      'fix',
      'fix',
      'fix',
      'fix',
      'fix',
      'fix',
    ];
    const d = await run(outcomes, 4);
    // 4: 2 fixes 1 break → centre 0.167 ± 0.640, straddles; 8: 6 fixes 1 break → centre 0.50 ± 0.46 → above 0
    expect(d.steps.map((s) => s.evaluated)).toEqual([4, 8]);
    expect(d.adopt).toBe(true);
    expect(d.reason).toBe('interval above margin');
    expect(d.fixes).toBe(6);
    expect(d.breaks).toBe(1);
  });

  it('rejects a candidate that only breaks, and decides by the mean when the pool runs out', async () => {
    const bad = await run(['break', 'break', 'break', 'break', 'break', 'break', 'break', 'break'], 8);
    expect(bad).toMatchObject({ adopt: false, reason: 'interval at or below margin' });
    const tie = await run(['fix', 'break', 'fix', 'break', 'unchanged', 'unchanged'], 2);
    expect(tie.adopt).toBe(false);
    expect(tie.reason).toMatch(/pool exhausted: mean 0\.000 ≤ margin 0/);
    expect(tie.steps.map((s) => s.evaluated)).toEqual([2, 4, 6]);
  });
});
