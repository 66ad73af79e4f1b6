/** How Cypher witnesses and summaries read (pure). */
import { describe, expect, it } from 'vitest';
import type { Verdict } from '../../core/types.ts';
import { formatTable } from './observer.ts';
import { cypherRenderer, formatRow, formatSummary, formatWitness } from './render.ts';

const verdict = (detail: Verdict['detail']): Verdict => ({
  pass: false,
  cases: [],
  witnesses: [],
  timings: { totalMs: 0 },
  detail,
});
const variant = {
  ops: [{ op: 'remove-relationship', id: '5:x:1', text: 'the serves relationship from A to B is removed' }],
};

describe('Cypher feedback text', () => {
  it('shows rows in the candidate’s column names, or as lists when columns could not be aligned', () => {
    expect(formatRow(['X', 3, null, ['a', 'b'], { k: 1 }], ['name', 'n', 'ceo', 'list', 'm'])).toBe(
      '{name: "X", n: 3, ceo: null, list: ["a", "b"], m: {k: 1}}',
    );
    expect(formatRow(['X', 3], null)).toBe('["X", 3]');
  });

  it('words each kind of witness, with the graph variant it was found on', () => {
    expect(formatWitness({ kind: 'missing-row', label: '', input: { row: ['X'], columns: ['a'] }, size: 1 })).toBe(
      'the row {a: "X"} is missing from your result',
    );
    expect(
      formatWitness({ kind: 'extra-row', label: '', input: { row: ['Y'], columns: null, variant }, size: 1 }),
    ).toBe(
      'your result has the row ["Y"], which should not be there (on a variant of the graph where the serves relationship from A to B is removed)',
    );
    expect(
      formatWitness({
        kind: 'misordered-row',
        label: '',
        input: { position: 1, row: ['b'], actualRow: ['c'], columns: ['x'] },
        size: 1,
      }),
    ).toBe('row 2 should be {x: "b"} but is {x: "c"} (the order of the rows matters here)');
    expect(formatWitness({ kind: 'failing-variant', label: '', input: { message: 'boom', variant }, size: 4 })).toBe(
      'your query fails where the expected query does not: boom (on a variant of the graph where the serves relationship from A to B is removed)',
    );
  });

  it('summarises without rows: counts, order, columns and variants', () => {
    expect(
      formatSummary(
        verdict({
          rows: { expected: 21, actual: 1 },
          columns: { expected: 1, actual: 1 },
          orderWrong: false,
          originalPass: false,
        }),
      ),
    ).toBe("Your query's result is wrong: it has 1 row, the expected result has 21 rows.");
    expect(
      formatSummary(
        verdict({
          rows: { expected: 5, actual: 5 },
          columns: { expected: 1, actual: 2 },
          orderWrong: false,
          originalPass: false,
        }),
      ),
    ).toBe(
      "Your query's result is wrong: it has the right number of rows (5) but not the right rows; it has 2 columns, the expected result has 1 column.",
    );
    expect(
      formatSummary(
        verdict({
          rows: { expected: 5, actual: 5 },
          columns: { expected: 1, actual: 1 },
          orderWrong: true,
          originalPass: false,
        }),
      ),
    ).toBe("Your query's result is wrong: it has the right rows in the wrong order.");
    expect(formatSummary(verdict({ rows: { expected: 5, actual: 5 }, originalPass: true, variantsFailed: 2 }))).toBe(
      "Your query's result is wrong: on 2 variants of the graph it differs from the expected result.",
    );
  });

  it('words errors by kind and ends every message with how to answer', () => {
    const render = cypherRenderer({ timeoutMs: 120_000 });
    expect(render.error({ kind: 'timeout', message: 'x' })).toBe('Your query did not finish within 120 s: x');
    expect(render.error({ kind: 'unsafe', message: 'the query writes' })).toBe(
      'Your query was not run: the query writes',
    );
    expect(render.error({ kind: 'no-artifact', message: '' })).toBe('I could not find a Cypher query in your reply.');
    expect(render.error({ kind: 'too-large', message: 'the query returned more than 100,000 rows' })).toBe(
      "Your query's result is too large: the query returned more than 100,000 rows. Return only what the question asks for.",
    );
    expect(
      render.error({
        kind: 'too-complex',
        message: 'the query is 5,000,014 bytes long; queries longer than 16,384 bytes are not run',
      }),
    ).toBe(
      'Your query is too long or too deeply nested to run: the query is 5,000,014 bytes long; queries longer than 16,384 bytes are not run. Write a shorter query.',
    );
    expect(render.retry).toBe('Reply with the corrected Cypher query alone in a ```cypher code block.');
  });

  it('keeps an observed result short however wide or long its values are (HERO-T reads it)', () => {
    const columns = Array.from({ length: 1500 }, (_, i) => `column_with_a_long_name_${i}`);
    const wide = formatTable({ columns, rows: Array.from({ length: 30 }, () => columns.map(() => 'x'.repeat(100))) });
    expect(wide.length).toBeLessThanOrEqual(8_000);
    expect(wide).toMatch(/…/);
    expect(wide.split('\n').at(-1)).toBe('… 10 more rows (30 in all)');
    expect(formatTable({ columns: ['a'], rows: [['x']] })).toBe('a\n"x"\n(1 row)');
  });
});
