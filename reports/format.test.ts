import { describe, expect, it } from 'vitest';
import { CASES, type TrajectorySpec, makeTrajectory } from './__fixtures__/trajectories.ts';
import { renderMarkdown } from './markdown.ts';
import { decimalWithInterval, formatSettings, integer, percentWithInterval, sectionNotes } from './format.ts';
import { listHarnessErrors, sectionsOf, summarize } from './summary.ts';
import { renderTables } from './table.ts';

const solved = (taskId: string, extra: Partial<TrajectorySpec> = {}) =>
  makeTrajectory({ taskId, turns: [{ source: 'a', pass: CASES }], ...extra });

describe('cell formatting', () => {
  it('renders rates as percentages with the interval in brackets', () => {
    expect(percentWithInterval({ value: 0.4667, ci: { low: 0.3, high: 0.6333 } })).toBe('46.7 [30.0–63.3]');
    expect(percentWithInterval({ value: null, ci: null })).toBe('—');
    expect(decimalWithInterval({ value: 0.477, ci: { low: 0.35, high: 0.6 } })).toBe('0.477 [0.350–0.600]');
    expect(integer(1234567.4)).toBe('1,234,567');
    expect(formatSettings({ dialect: 'sqlite', order: true })).toBe('dialect: sqlite, order: true');
    expect(formatSettings({})).toBe('default settings');
  });
});

describe('renderTables', () => {
  it('prints one table per (benchmark, model) with strategies as rows and every column', () => {
    const rows = summarize([
      solved('a', { strategy: 'diagnostic' }),
      makeTrajectory({ taskId: 'b', strategy: 'diagnostic', turns: [{ source: 'x', pass: [] }] }),
      solved('a', { strategy: 'zero-shot' }),
      solved('a', { model: 'gpt', tokens: { prompt: 1000, completion: 234, estimated: true } }),
    ]);
    const text = renderTables(rows);
    for (const header of [
      'n',
      'Pass@1',
      'Pass@final',
      'MRR',
      'mean τ',
      'attempts',
      'stability',
      'RER (pooled)',
      'RER (task mean)',
      'hardened',
      'robust',
      'tokens',
    ]) {
      expect(text).toContain(header);
    }
    expect(text.indexOf('nlrx-turk · gpt')).toBeLessThan(text.indexOf('nlrx-turk · sim'));
    const sim = text.slice(text.indexOf('nlrx-turk · sim'));
    expect(sim.indexOf('zero-shot')).toBeLessThan(sim.indexOf('diagnostic'));
    expect(text).toMatch(/diagnostic.*│ +2 │ +50\.0 \[0\.0–100\.0\]/);
    expect(text).toContain('~1,234 (1,234/traj)');
    expect(text).not.toContain('\u001b['); // plain: no colour codes
    expect(text).not.toContain('Privileged');
  });

  it('says so when the model is privileged, and prints nothing for no rows', () => {
    expect(renderTables(summarize([solved('a', { privileged: true })]))).toContain(
      "Privileged model: 'sim' knows the gold program, so its scores measure the harness, not a model.",
    );
    expect(renderTables([])).toBe('');
  });

  it('names the steerable sim in its own privileged notice, in the table and in Markdown', () => {
    const steered = summarize([solved('a', { privileged: true, model: 'sim-steerable' })]);
    expect(renderTables(steered)).toContain("Privileged model: 'sim-steerable' (steerable sim) knows the gold program");
    expect(renderMarkdown(steered)).toMatch(
      /\*\*Privileged model: 'sim-steerable' \(steerable sim\).*not a model\.\*\*/,
    );
  });
});

describe('renderMarkdown', () => {
  const trajectories = [
    solved('a', { strategy: 'generic', privileged: true }),
    solved('a', { strategy: 'diagnostic', privileged: true, promptHash: 'feedfacecafebeef' }),
    makeTrajectory({
      taskId: 'z',
      strategy: 'diagnostic',
      privileged: true,
      status: 'harness-error',
      error: 'no such table: users',
      turns: [],
    }),
    solved('q', {
      benchmark: 'bird',
      model: 'gpt-x',
      oracle: 'sql',
      settings: { dialect: 'sqlite', comparison: 'multiset' },
    }),
  ];
  const md = renderMarkdown(summarize(trajectories), listHarnessErrors(trajectories));

  it('writes a header line with run id, model, prompt hashes and oracle settings', () => {
    expect(md).toContain('## bird · gpt-x');
    expect(md).toContain(
      'Run `run-1` · model `gpt-x` · prompt hash `0123456789abcdef` · oracle `sql` (dialect: sqlite, comparison: multiset)',
    );
    expect(md).toContain('prompt hashes `0123456789abcdef`, `feedfacecafebeef`');
  });

  it('writes a GFM table with one row per strategy in order', () => {
    expect(md).toContain(
      '| strategy | n | Pass@1 | Pass@final | MRR | mean τ | attempts | stability | RER (pooled) | RER (task mean) | hardened | robust | tokens |',
    );
    expect(md).toContain('| --- | ---: |');
    const sim = md.slice(md.indexOf('## nlrx-turk · sim'));
    expect(sim.indexOf('| generic |')).toBeLessThan(sim.indexOf('| diagnostic |'));
    expect(md).toContain('| diagnostic | 1 | 100.0 [100.0–100.0] |');
  });

  it('flags privileged models in bold and lists harness errors', () => {
    expect(md).toContain(
      "**Privileged model: 'sim' knows the gold program, so its scores measure the harness, not a model.**",
    );
    expect(md.split('**Privileged').length - 1).toBe(1); // only the sim section
    expect(md).toContain('- diagnostic: 1 harness error (excluded from rates)');
    expect(md).toContain('## Harness errors');
    expect(md).toContain('task `z` trial 0: no such table: users');
  });

  it('lists invalid data once per item, escaped, and folds a long list', () => {
    const invalid = (taskId: string, reason: string) => ({ benchmark: 'nl-rx', taskId, reason, episodes: 2 });
    const one = renderMarkdown(summarize(trajectories), [], {
      invalidData: [invalid('17', 'task 17: the gold regex "<b>[0-9]&[a-z]" denotes the empty language')],
    });
    expect(one).toContain(
      '## Invalid data: 1 item the dataset makes unposable (2 episodes, excluded from rates and n; strict data makes them fail the run)\n\n' +
        '- nl-rx · 17: the gold regex "&lt;b>\\[0-9\\]&amp;\\[a-z\\]" denotes the empty language (2 episodes)',
    );
    const many = renderMarkdown(summarize(trajectories), [], {
      invalidData: Array.from({ length: 21 }, (_, i) => invalid(String(i), `task ${i}: empty regex`)),
    });
    expect(many).toContain('(42 episodes, excluded');
    expect(many).toContain('<details><summary>The items</summary>\n\n- nl-rx · 0: empty regex (2 episodes)');
    expect(many.match(/^- nl-rx · /gm)).toHaveLength(21);
  });
});

describe('sectionNotes', () => {
  it('qualifies rows with model errors, cache use and probe agreement', () => {
    const rows = summarize([
      solved('a', { strategy: 'diagnostic', cache: { hits: 3, misses: 1 } }),
      makeTrajectory({
        taskId: 'b',
        strategy: 'diagnostic',
        status: 'model-error',
        turns: [{ source: null, modelError: 'HTTP 500' }],
        cache: { hits: 0, misses: 1 },
      }),
      solved('a', { strategy: 'generic' }),
    ]);
    const notes = sectionNotes(sectionsOf(rows)[0]!);
    expect(notes).toEqual([
      'generic: response cache 0 hits, 1 miss',
      'diagnostic: 1 model error (counted unsolved); response cache 3 hits, 2 misses',
    ]);
  });
});
