/**
 * Every scan of text from outside — model replies, dataset descriptions and programs, candidate
 * programs, engine output — over each hostile shape (core/hostile/shapes.ts)
 * at a megabyte: linear time, so none can stall a run. Harness sources are parsed by the compiler
 * (optimizers/meta-harness/imports.property.test.ts).
 */
import { describe, expect, it } from 'vitest';
import { HOSTILE_SHAPES } from '../core/hostile/shapes.ts';
import { symptomOf } from '../optimizers/meta-harness/sim-diagnosis.ts';
import { extractCypher } from '../oracles/cypher/extract.ts';
import { extractPython, pythonAnswer } from '../oracles/python/extract.ts';
import { mutationSites } from '../oracles/python/sim/mutate.ts';
import { detokenizeDescription } from '../oracles/regex/deepregex-tokens.ts';
import { extractRegex } from '../oracles/regex/extract.ts';
import { descriptionTokens, patternLiterals } from '../oracles/regex/probes.ts';
import { normalizeSql } from '../oracles/sql/compare.ts';
import { extractSql } from '../oracles/sql/extract.ts';

const SCANS: [string, (text: string) => unknown][] = [
  ['extractRegex', extractRegex],
  ['extractSql', extractSql],
  ['extractCypher', extractCypher],
  ['extractPython (first)', (t) => extractPython(t, 'first')],
  ['extractPython (last)', (t) => extractPython(t, 'last')],
  ['pythonAnswer', pythonAnswer],
  ['mutationSites', mutationSites],
  ['descriptionTokens', descriptionTokens],
  ['patternLiterals', patternLiterals],
  ['detokenizeDescription', detokenizeDescription],
  ['normalizeSql', normalizeSql],
  [
    'symptomOf',
    (t) => symptomOf({ taskId: 't', statement: t, program: t, pass: false, error: null, witnessLabels: [] }, 'regex'),
  ],
];

describe('scans of outside text stay linear on hostile shapes', () => {
  for (const hostile of HOSTILE_SHAPES) {
    it(`a megabyte of ${hostile.name}`, () => {
      const text = hostile.build(1 << 20);
      const slow: string[] = [];
      for (const [name, scan] of SCANS) {
        const started = performance.now();
        scan(text);
        const ms = performance.now() - started;
        // Linear scans take milliseconds to seconds here (the Python tokenizer is the slowest, ~6 µs a
        // character); backtracking ones took minutes to hours.
        if (ms > 15_000) slow.push(`${name}: ${Math.round(ms)} ms`);
      }
      expect(slow).toEqual([]);
    }, 120_000);
  }
});
